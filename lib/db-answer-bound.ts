// The client's bound on a database that stops answering (a stopped process, a network gone silent).
// Such a server cancels nothing, so a query would wait for ever: a connection that has work and
// receives nothing for `boundMs` is dropped, and its query fails with NO_ANSWER_MESSAGE (answered
// 503, lib/http/unavailable.ts). PostgreSQL itself ends a statement at statement_timeout, so a server
// that still answers always sends something before the bound.
//
// pg's own query_timeout did this, but the callback it wraps each query in kept that query's result
// reachable for V8's young-generation collections: the rows of every statement outlived the
// scavenges until the next full collection, so each scavenge copied and promoted megabytes of dead
// rows, and the old generation filled at the pace of the answers
// (docs/performance/round-25-rows-kept-by-the-query-timeout.md). Here the bound is the socket's own
// inactivity timeout instead, armed when a query is sent and disarmed when the client has nothing left
// to do: nothing per query holds a result.
import type { Socket } from 'node:net';
import pg from 'pg';

/** The message of the error a query fails with when the database answered nothing within the bound. */
const NO_ANSWER_MESSAGE = 'Query read timeout: the database answered nothing';

/** The socket a client talks on (replaced by a TLS socket when the connection upgrades to SSL). */
function socketOf(client: pg.Client): Socket {
  return (client as unknown as { connection: { stream: Socket } }).connection.stream;
}

/** A pg.Client class (a pool's `Client` option) whose connections are dropped after `boundMs` without an answer while they have work. */
export function answerBoundClient(boundMs: number): typeof pg.Client {
  class AnswerBoundClient extends pg.Client {
    /** The socket whose silence is watched: a 'timeout' listener is added once per socket. */
    private watched: Socket | null = null;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // The socket's error reaches the query that waited; this listener keeps the same error, emitted
      // again on the client, from crashing the process while a pool has the client checked out.
      this.on('error', () => {});
      // Idle, a pooled connection may be silent for as long as it likes.
      this.on('drain', () => socketOf(this).setTimeout(0));
    }

    /** Arms the bound before each query: pg sends it now, or when the queries before it are done. */
    watchSilence(): void {
      const socket = socketOf(this);
      if (this.watched !== socket) {
        this.watched = socket;
        socket.on('timeout', () => socket.destroy(new Error(`${NO_ANSWER_MESSAGE} for ${boundMs} ms`)));
      }
      socket.setTimeout(boundMs);
    }
  }
  // Every form of query() (text or config, with a callback or a promise, or a Submittable) passes here.
  const send = pg.Client.prototype.query;
  AnswerBoundClient.prototype.query = function (this: AnswerBoundClient, ...args: unknown[]) {
    this.watchSilence();
    return (send as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof send;
  return AnswerBoundClient;
}
