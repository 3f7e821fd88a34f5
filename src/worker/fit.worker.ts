/// <reference lib="webworker" />
/** The failure-log fit, off the main thread: a 100,000-event log's JSON alone takes longer than a frame. */
import { expose } from "comlink";
import { fitApi } from "./fitApi.ts";

export type FitWorkerApi = typeof fitApi;
expose(fitApi);
