/// <reference lib="webworker" />
/** The trace worker: reads and measures profiler traces off the main thread (traceApi.ts). */
import { expose } from "comlink";
import { traceApi } from "./traceApi.ts";
import { traceCompareApi } from "./traceCompareApi.ts";

export type TraceWorkerApi = typeof traceApi & typeof traceCompareApi;
expose({ ...traceApi, ...traceCompareApi });
