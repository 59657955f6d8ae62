// How the production server (scripts/server.mjs) answers a request it could not read: as Node.js does
// when no one listens for 'clientError', with one change to when a request counts as too slow.
import { STATUS_CODES } from 'node:http';

/** Node's status for each error it cannot read a request past; any other: 400. */
const STATUS_BY_CODE = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * `latestOf(socket)` is the connection's latest request, `{ req, res }` (they come one at a time).
 *
 * Node counts a new connection's time from when it was accepted and checks it on a timer. After the
 * event loop was held (a new instance's first renders on a busy machine), that timer runs before the
 * data that arrived meanwhile is read, and a request sent in time on a connection opened before was
 * answered 408 (a roll-out's new instance did so to its balancer's fresh connections). So a timeout
 * is judged once that data has been read (setImmediate runs after the poll phase that reads it): a
 * request that has arrived in full by then is served; one still arriving gets the 408.
 */
export function answerClientErrors(server, latestOf) {
  server.on('clientError', (error, socket) => {
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return void refuse(error, socket, latestOf(socket));
    const waiting = latestOf(socket);
    const hadArrived = waiting?.req.complete;
    setImmediate(() => {
      const latest = latestOf(socket);
      const arrivedSince = latest?.req.complete && (latest !== waiting || !hadArrived);
      if (!arrivedSince) refuse(error, socket, latest);
    });
  });
}

/** Node's answer: the status line and Connection: close (never into an answer already begun), then the connection closed. */
function refuse(error, socket, latest) {
  const answering = latest && !latest.res.writableFinished && latest.res.headersSent;
  if (socket.writable && !answering) {
    const status = STATUS_BY_CODE[error.code] ?? 400;
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(error);
}
