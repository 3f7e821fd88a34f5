export function LabView() {
  return <p>The WebGPU lab arrives with its issue.</p>;
}
