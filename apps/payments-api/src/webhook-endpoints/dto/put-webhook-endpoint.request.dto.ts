import { IsDefined } from 'class-validator';
import { IsHttpUrl } from '../../http/validators';

export class PutWebhookEndpointRequestDto {
  @IsDefined()
  @IsHttpUrl()
  url!: string;
}
