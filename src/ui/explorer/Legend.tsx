/** What each colour and marker on the timeline means. */
const ITEMS = [
  { cls: "sw-training", label: "Training" },
  { cls: "sw-stalled", label: "Stalled: healthy, waiting for another replica (FT-HSDP)" },
  { cls: "sw-down", label: "Down: detecting / restarting (FT-HSDP replica) · recovering (sync job)" },
  { cls: "sw-waitspare", label: "Waiting for a spare host (limited spare pool)" },
  { cls: "sw-catchup", label: "Catching up from a peer (FT) · checkpoint write (sync)" },
  { cls: "sw-rejoin", label: "Rejoining the ring (FT-HSDP)" },
  { cls: "sw-rolledback", label: "Rolled back: trained, then lost (sync)" },
];

export function Legend() {
  return (
    <ul className="legend" aria-label="Timeline legend">
      {ITEMS.map((i) => (
        <li key={i.cls}>
          <span className={`swatch ${i.cls}`} aria-hidden="true" />
          {i.label}
        </li>
      ))}
      <li>
        <span className="marker-failstop" aria-hidden="true">
          ▼
        </span>
        Fail-stop failure
      </li>
      <li>
        <span className="marker-hang" aria-hidden="true">
          ◆
        </span>
        Hang (found by the watchdog)
      </li>
    </ul>
  );
}
