import { Module } from '@nestjs/common';
import { Ledger } from './ledger';

@Module({ providers: [Ledger], exports: [Ledger] })
export class LedgerModule {}
