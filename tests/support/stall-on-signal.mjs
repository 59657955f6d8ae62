// Loaded into a test's server process (NODE_OPTIONS=--import=…): SIGUSR2 holds its event loop for
// STALL_MS milliseconds (4 s unless set), as a long piece of synchronous work would, and says so in a
// log line when it begins (standard error to a pipe is written at once).
process.on('SIGUSR2', () => {
  process.stderr.write(`${JSON.stringify({ level: 'info', msg: '[test] the event loop is held' })}\n`);
  const end = Date.now() + Number(process.env.STALL_MS ?? 4_000);
  while (Date.now() < end);
});
