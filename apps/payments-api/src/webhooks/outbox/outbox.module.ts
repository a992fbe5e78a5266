import { Module } from '@nestjs/common';
import { OutboxPurger } from './outbox.purger';
import { OutboxRelay } from './outbox.relay';
import { OutboxRepository } from './outbox.repository';

@Module({ providers: [OutboxRepository, OutboxRelay, OutboxPurger] })
export class OutboxModule {}
