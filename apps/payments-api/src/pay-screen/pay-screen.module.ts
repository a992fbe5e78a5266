import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { PayScreenController } from './pay-screen.controller';
import { PayScreenService } from './pay-screen.service';

@Module({ imports: [PaymentsModule], controllers: [PayScreenController], providers: [PayScreenService] })
export class PayScreenModule {}
