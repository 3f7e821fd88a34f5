import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startAddress } from "./state/address.ts";
import { startClusterRunner } from "./state/clusterRunner.ts";
import { App } from "./ui/App.tsx";
import "./ui/styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// The stores' modules (imported through App) have registered their address parts by now.
startAddress();
startClusterRunner();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
