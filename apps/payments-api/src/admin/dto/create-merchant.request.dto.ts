import { IsDefined, IsOptional, ValidateBy } from 'class-validator';
import { IsPrintableText, isIanaTimeZone } from '../../http/validators';

export class CreateMerchantRequestDto {
  @IsDefined()
  @IsPrintableText(200)
  name!: string;

  @IsOptional()
  @ValidateBy({
    name: 'isIanaTimeZone',
    validator: { validate: isIanaTimeZone, defaultMessage: () => 'must be an IANA time zone such as Asia/Seoul' },
  })
  timeZone?: string;
}
