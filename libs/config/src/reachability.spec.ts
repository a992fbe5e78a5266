import { createServer, type Server } from 'node:net';
import { postgresAt, rabbitmqAt, unreachable } from './reachability';

/** A port that was just free: a server listened on it and closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('unreachable', () => {
  let server: Server;
  let openPort: number;

  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    openPort = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('is null when something answers', async () => {
    expect(await unreachable(postgresAt(`postgres://postgres@127.0.0.1:${openPort}/payhook`))).toBeNull();
  });

  it("is null when one host of DATABASE_URL's list answers, and names every host when none does", async () => {
    const port = await closedPort();
    expect(
      await unreachable(postgresAt(`postgres://postgres:s3cret@127.0.0.1:${port},127.0.0.1:${openPort}/payhook`)),
    ).toBeNull();
    const other = await closedPort();
    const reason = await unreachable(postgresAt(`postgres://postgres:s3cret@127.0.0.1:${port},[::1]:${other}/payhook`));
    expect(reason).toMatch(
      new RegExp(
        `^payhook cannot start: PostgreSQL does not answer at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\), ::1:${other} \\(`,
      ),
    );
    expect(reason).toContain('set DATABASE_URL to one that answers');
    expect(reason).not.toContain('s3cret');
  });

  it('names the service, where it looked and the variable to set, without the password', async () => {
    const port = await closedPort();
    const reason = await unreachable(rabbitmqAt([`amqp://guest:s3cret@127.0.0.1:${port}/payhook`]));
    expect(reason).toBe(
      `payhook cannot start: RabbitMQ does not answer at 127.0.0.1:${port} (ECONNREFUSED). ` +
        'Start it, or set AMQP_URL to one that answers.',
    );
    expect(reason).not.toContain('s3cret');
  });

  it('is null when one node of a cluster answers and the others do not', async () => {
    const port = await closedPort();
    const nodes = [`amqp://guest:guest@127.0.0.1:${port}`, `amqp://guest:guest@127.0.0.1:${openPort}`];
    expect(await unreachable(rabbitmqAt(nodes))).toBeNull();
  });

  it('names every node it tried when none answers', async () => {
    const [first, second] = [await closedPort(), await closedPort()];
    const reason = await unreachable(
      rabbitmqAt([`amqp://guest:s3cret@127.0.0.1:${first}`, `amqp://guest:s3cret@127.0.0.1:${second}`]),
    );
    expect(reason).toBe(
      `payhook cannot start: RabbitMQ does not answer at 127.0.0.1:${first} (ECONNREFUSED), ` +
        `127.0.0.1:${second} (ECONNREFUSED). Start it, or set AMQP_URL to one that answers.`,
    );
    expect(reason).not.toContain('s3cret');
  });
});
