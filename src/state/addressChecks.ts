/**
 * The store-free checks of the keys whose views load on demand, so a bad key is named when the
 * link is opened, not when its view is first shown. Loaded after the first frame
 * (main.tsx): the codecs it pulls in are not on the first page load's path. Each check throws
 * the message its part throws, so a key is named once when its view loads later.
 */
import { decodeLabParam } from "../link/labLink.ts";
import { decodeLabResults } from "../link/labResultsLink.ts";
import { LinkError } from "../link/linkError.ts";
import { decodeStepParam } from "../link/stepLink.ts";
import { decodeSweepParam } from "../link/sweepLink.ts";
import { decodeTornadoParam } from "../link/tornadoLink.ts";
import { decodeWindowParam } from "../link/windowParam.ts";
import { registerAddressChecks } from "./address.ts";
import { parseGpuPrice } from "./gpuPrice.ts";
import { parseStoryCap } from "./storyBucket.ts";
import { parseTrainAgain, parseTrainLink, parseTrainMode } from "./trainLink.ts";

registerAddressChecks({
  w: (v) => void decodeWindowParam(v),
  sw: (v) => void decodeSweepParam(v),
  tn: (v) => void decodeTornadoParam(v),
  st: (v) => void decodeStepParam(v),
  lab: (v) => void decodeLabParam(v),
  lres: (v) => void decodeLabResults(v),
  lfd: (v) => {
    if (v !== "1")
      throw new LinkError(`lfd= (the lab's fault demo) must be 1 or absent; got "${v.slice(0, 40)}".`);
  },
  t: (v) => void parseTrainLink(v),
  tm: (v) => void parseTrainMode(v),
  tr: (v) => void parseTrainAgain(v),
  gph: (v) => {
    const price = parseGpuPrice(v);
    if (typeof price === "string") throw new LinkError(`The link's gph=: ${price} The price is unchanged.`);
  },
  bk: (v) => void parseStoryCap(v),
});
