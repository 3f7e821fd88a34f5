/// <reference lib="webworker" />
/** The trace worker: reads and measures profiler traces off the main thread (traceApi.ts). */
import { expose } from "comlink";
import { traceApi } from "./traceApi.ts";

export type TraceWorkerApi = typeof traceApi;
expose(traceApi);
