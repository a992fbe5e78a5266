// The listen sessions feature's door: what the other rooms and the surfaces may use of it.
// Its module, for the composition root (the routes `payhook listen` calls).
export { ListenSessionsModule } from './listen-sessions.module';
// Its response shapes, for the OpenAPI documents the docs surface assembles.
export { LISTEN_SESSION_SCHEMAS } from './listen-sessions.schemas';
