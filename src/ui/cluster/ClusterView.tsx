export function ClusterView() {
  return <p>Cluster view.</p>;
}
