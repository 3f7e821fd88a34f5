/// <reference lib="webworker" />
/** The simulation worker: the cluster and step models, off the main thread. */
import { expose } from "comlink";
import { clusterApi } from "./clusterApi.ts";
import { stepApi } from "./stepApi.ts";

const api = { ...clusterApi, ...stepApi };
export type SimWorkerApi = typeof api;
expose(api);
