/** Why a link (or one of its keys) cannot be used, in words a person can act on. */
export class LinkError extends Error {
  override name = "LinkError";
}
