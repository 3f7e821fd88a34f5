import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  /** What the boundary holds, as a person calls it ("The timeline", "One step"). */
  what: string;
  /** A view's failure leaves the other views; a panel's leaves the rest of its view. */
  level: "view" | "panel";
  /** A new key (another tab, another run) clears a failure: the new content gets its own try. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: unknown;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Catches what its children throw while rendering (and what they hand over with
 * useThrowToBoundary), and says in place what failed: without one, React unmounts the whole app
 * and a person sees a blank page. Errors are shown as text, never as markup.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(messageOf(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return Object.is(props.resetKey, state.key) ? null : { key: props.resetKey, error: null };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for whoever debugs it; the page says it in words.
    console.error(`${this.props.what} failed:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { what, level } = this.props;
    const rest =
      level === "view"
        ? "The other views still work, and the address still holds your settings."
        : "The rest of this view still works.";
    return (
      <div className={`boundary-error boundary-${level}`} role="alert" data-testid={`${level}-error`}>
        <p>
          <strong>{what} stopped working.</strong> {rest}
        </p>
        <p className="boundary-message">{messageOf(error)}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
