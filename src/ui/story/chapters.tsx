/** The story's chapters: each a title and a body (prose, a live figure, its sources). */
import type { ComponentType } from "react";
import type { ChapterId } from "../../state/storyChapters.ts";
import { FtarKernelsChapter } from "./chapters/FtarKernels.tsx";
import { GradientsChapter } from "./chapters/Gradients.tsx";
import { LoseReplicaChapter } from "./chapters/LoseReplica.tsx";
import { OneFailureChapter } from "./chapters/OneFailure.tsx";
import { PredictChapter } from "./chapters/Predict.tsx";
import { RealClustersChapter } from "./chapters/RealClusters.tsx";
import { SyncCollapsesChapter } from "./chapters/SyncCollapses.tsx";
import { YourClusterChapter } from "./chapters/YourCluster.tsx";

export interface Chapter {
  title: string;
  Body: ComponentType;
}

export const CHAPTERS: Record<ChapterId, Chapter> = {
  "one-failure": { title: "One failure, one hundred thousand GPUs", Body: OneFailureChapter },
  "sync-collapses": { title: "Why synchronous training collapses at scale", Body: SyncCollapsesChapter },
  "lose-a-replica": { title: "Lose a replica, not the job", Body: LoseReplicaChapter },
  predict: { title: "Predict, then look", Body: PredictChapter },
  gradients: { title: "Where the gradients go", Body: GradientsChapter },
  "ftar-kernels": { title: "FTAR on real kernels", Body: FtarKernelsChapter },
  "real-clusters": { title: "What real clusters add", Body: RealClustersChapter },
  "your-cluster": { title: "Your cluster", Body: YourClusterChapter },
};
