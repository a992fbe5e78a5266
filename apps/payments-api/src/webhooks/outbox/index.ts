// The outbox feature's door: what the composition root may use of it.
// Its module, which runs the relay and the purger.
export { OutboxModule } from './outbox.module';
