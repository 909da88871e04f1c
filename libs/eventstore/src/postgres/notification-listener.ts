import type pg from 'pg';
import type { ChangeSignal } from '../change-signal.js';

/**
 * One LISTEN connection per store, shared by all its subscriptions and held only while at least one
 * subscription runs. A lost connection is not fatal: subscriptions keep polling and the connection is
 * re-established on their next wait.
 */
export class NotificationListener {
  private users = 0;
  private connection: { readonly client: pg.PoolClient; readonly detach: () => void } | null = null;
  /** Connects and disconnects run one after another, so a quick retain/release never leaks a client. */
  private transitions: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly changes: ChangeSignal,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Resolves once the connection listens (or failed to, which polling covers). */
  retain(): Promise<void> {
    this.users += 1;
    return this.reconcile();
  }

  release(): Promise<void> {
    this.users -= 1;
    return this.reconcile();
  }

  /** Called by an idle subscription: reconnects when the connection was lost. */
  reviveIfLost(): void {
    if (this.users > 0 && this.connection === null) void this.reconcile();
  }

  private reconcile(): Promise<void> {
    this.transitions = this.transitions.then(
      () => this.applyWantedState(),
      () => this.applyWantedState(),
    );
    return this.transitions;
  }

  private async applyWantedState(): Promise<void> {
    try {
      if (this.users > 0 && this.connection === null) await this.connect();
      else if (this.users === 0 && this.connection !== null) await this.disconnect(this.connection);
    } catch (error) {
      this.onError(error as Error);
    }
  }

  private async connect(): Promise<void> {
    const client = await this.pool.connect();
    const onNotification = (): void => {
      this.changes.notify();
    };
    const onConnectionError = (error: Error): void => {
      if (this.connection?.client !== client) return;
      this.connection = null;
      detach();
      client.release(error);
      this.onError(error);
      // Whatever was committed while the connection was down must be read now, not at the next poll.
      this.changes.notify();
    };
    const detach = (): void => {
      client.off('notification', onNotification);
      client.off('error', onConnectionError);
    };
    client.on('notification', onNotification);
    client.on('error', onConnectionError);
    try {
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      detach();
      client.release(error as Error);
      throw error;
    }
    this.connection = { client, detach };
    // Events committed before LISTEN took effect sent no notification to us: have subscribers re-read.
    this.changes.notify();
  }

  private async disconnect(connection: {
    readonly client: pg.PoolClient;
    readonly detach: () => void;
  }): Promise<void> {
    this.connection = null;
    // Detached only after UNLISTEN: a connection the server ends during it also emits 'error', which
    // the (now idle) listener takes; with none, the process would end.
    try {
      await connection.client.query(`UNLISTEN "${this.channel}"`);
      connection.detach();
      connection.client.release();
    } catch (error) {
      connection.detach();
      connection.client.release(error as Error);
      throw error;
    }
  }
}
