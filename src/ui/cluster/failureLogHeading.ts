/** The Failure log panel's heading's id: the story's last chapter scrolls the Cluster view to it. */
export const FAILURE_LOG_HEADING = "failure-log-h";
