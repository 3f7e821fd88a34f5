/**
 * The lab's part of the address: `lab=` (the forms), `lres=` (the results table) and `lfd=` (the
 * fault demo on screen), read into the lab's store and written from it as it changes.
 */
import type { StoreApi } from "zustand/vanilla";
import { DEFAULT_LAB_SETTINGS, decodeLabParam, encodeLabParam, type LabSettings } from "../link/labLink.ts";
import { decodeLabResults, encodeLabResults } from "../link/labResultsLink.ts";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";
import type { LabState } from "./labState.ts";

/** Registers the lab's keys with the address, reading into and writing from this store. */
export function registerLabAddress(labStore: StoreApi<LabState>): void {
  /**
   * `lab=`: the run form and the fault plan (not the results: whoever opens the link reruns them).
   * A mode this browser lacks falls back to the first it has when the adapter is known (start()).
   */
  function applyLab(s: LabSettings): void {
    // A link may ask for a run past the lab's budget: say so, rather than quietly opening another.
    // setForm sets nothing when it refuses, so the plan is set only after the form was taken: a
    // refusal keeps the form and the plan on screen.
    const problems = labStore.getState().setForm(s.form);
    if (problems.length > 0)
      throw new LinkError(`The link's lab settings (lab=) were not used: ${problems.join(" ")}`);
    labStore.getState().setFault(s.fault);
  }
  registerAddressPart({
    keys: ["lab"],
    read: (values) => {
      const raw = values.get("lab");
      applyLab(raw ? decodeLabParam(raw) : DEFAULT_LAB_SETTINGS);
    },
    write: () => {
      const { form, fault } = labStore.getState();
      return { lab: encodeLabParam({ form, fault }) };
    },
  });
  /**
   * `lres=`: the results table, each row with the adapter that measured it, so a link shows what
   * its maker saw. Rows measured here stay when the address moves to an entry without them.
   */
  registerAddressPart({
    keys: ["lres"],
    read: (values) => {
      const raw = values.get("lres");
      labStore.getState().setLinkedResults(raw ? decodeLabResults(raw) : []);
    },
    write: () => {
      const { results, adapter } = labStore.getState();
      const here = adapter?.label ?? "this machine";
      return { lres: encodeLabResults(results.map(({ id: _, from, ...r }) => ({ ...r, on: from ?? here }))) };
    },
  });
  /**
   * `lfd=1`: the fault demo was on screen, for the plan `lab=` holds; whoever opens the link sees it
   * run (the ring, the kill, the re-formed ring; its times are measured again, on their machine).
   */
  registerAddressPart({
    keys: ["lfd"],
    read: (values) => {
      const raw = values.get("lfd");
      if (raw !== undefined && raw !== "1")
        throw new LinkError(`lfd= (the lab's fault demo) must be 1 or absent; got "${raw.slice(0, 40)}".`);
      labStore.getState().wantFault(raw === "1");
    },
    write: () => {
      const { fault, faultShownFor, faultWanted } = labStore.getState();
      return faultWanted || (faultShownFor !== null && faultShownFor === fault) ? { lfd: "1" } : {};
    },
  });
  labStore.subscribe((s, prev) => {
    if (s.faultShownFor !== prev.faultShownFor) requestAddressWrite("replace");
    // The adapter's arrival may move the forms to a mode this browser has: not an edit of anyone's.
    if (s.form !== prev.form || s.fault !== prev.fault)
      requestAddressWrite(prev.status === "starting" ? "replace" : "edit");
    // A measured row is not an edit of anyone's: the current entry takes it.
    if (s.results !== prev.results) requestAddressWrite("replace");
  });
}
