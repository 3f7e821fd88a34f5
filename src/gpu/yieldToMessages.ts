/**
 * One turn of the event loop, so that messages already queued for this worker run now: a Kill or
 * a Cancel sent by the page lands between two steps instead of after the whole collective. A
 * MessageChannel rather than setTimeout(0), which nested timers clamp to 4 ms a turn.
 */
export function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
