export function StepView() {
  return <p>The step model arrives with its issue.</p>;
}
