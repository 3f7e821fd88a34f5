/**
 * Zod 4 compiles a fast object parser with `new Function` and probes whether eval is allowed
 * first; under the app's Content-Security-Policy (no 'unsafe-eval') that probe reports a
 * violation on every page. Jitless parsing gives the same results without eval. Imported by the
 * schema module so it runs before any schema is built, in the page, the workers and the CLI.
 */
import { z } from "zod";

z.config({ jitless: true });
