/**
 * Zod 4 compiles a fast object parser with `new Function` and probes whether eval is allowed
 * first; under the app's Content-Security-Policy (no 'unsafe-eval') that probe reports a
 * violation on every page. Jitless parsing gives the same results without eval. Imported by each
 * module that builds schemas, so it runs before any schema is built, in the page, the workers and the CLI.
 *
 * The schemas use zod/mini, the tree-shakable form of the same library (the page's first load
 * carries ~20 KB of it instead of ~83 KB). Its core wording of a refused value ("Too small:
 * expected number to be >=0") is the English locale, which zod/mini leaves to the caller.
 */
import { en } from "zod/locales";
import * as z from "zod/mini";

z.config({ ...en(), jitless: true });
