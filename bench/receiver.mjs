// The merchant side of `npm run bench`, in its own process so that it does not share a core's
// time with the code under test. Answers 200 to every webhook and remembers when each event came;
// RECEIVER_MODE=fail answers 500 at once, RECEIVER_MODE=hang never answers (a broken merchant).
const MODE = process.env.RECEIVER_MODE ?? 'ok';
import { createServer } from 'node:http';

const arrivals = new Map(); // event id -> [arrival ms, completion ms from the body]
const completedPayments = new Set(); // paymentId of every payment.completed event that arrived
let deliveries = 0;
let lastDelivery = null; // when the latest answered delivery came, a repeat of an event included

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    const latencies = [...arrivals.values()].map(([arrived, completed]) => arrived - completed);
    const times = [...arrivals.values()].map(([arrived]) => arrived);
    response.end(
      JSON.stringify({
        deliveries,
        distinct: arrivals.size,
        latencies,
        first: times.length ? Math.min(...times) : null,
        last: times.length ? Math.max(...times) : null,
        lastDelivery,
      }),
    );
    return;
  }
  // Each event's first arrival and its completion, for a test that asks when deliveries resumed.
  if (request.method === 'GET' && request.url === '/arrivals') {
    response.end(JSON.stringify([...arrivals.values()]));
    return;
  }
  // Each event's first arrival by its id, for the bench's stage timestamps of a sample of events.
  if (request.method === 'GET' && request.url === '/arrivals-by-event') {
    response.end(JSON.stringify(Object.fromEntries([...arrivals].map(([id, [arrived]]) => [id, arrived]))));
    return;
  }
  // The payments whose payment.completed event arrived, for a test that checks each one it completed.
  if (request.method === 'GET' && request.url === '/completed-payments') {
    response.end(JSON.stringify([...completedPayments]));
    return;
  }
  if (request.method === 'POST' && request.url === '/reset') {
    arrivals.clear();
    completedPayments.clear();
    deliveries = 0;
    lastDelivery = null;
    response.end('{}');
    return;
  }
  if (MODE === 'hang') return; // holds the connection until the dispatcher gives up
  if (MODE === 'fail') {
    deliveries += 1;
    request.resume();
    response.statusCode = 500;
    response.end('down');
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const now = Date.now();
    deliveries += 1;
    lastDelivery = now;
    const id = request.headers['service-event-id'];
    if (id && !arrivals.has(id)) {
      let completedAt = now;
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString());
        completedAt = Date.parse(event.data.completedAt);
        if (event.type === 'payment.completed') completedPayments.add(event.data.paymentId);
      } catch {
        // not an event body (the ceiling loop): latency is not measured for it
      }
      arrivals.set(id, [now, completedAt]);
    }
    response.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
// PORT=0: a free port, told to the parent with the ready message.
server.listen(Number(process.env.PORT ?? 3199), '127.0.0.1', () => process.send?.({ port: server.address().port }));
