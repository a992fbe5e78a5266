import { IsDefined, IsEmail, IsString, Length, MaxLength } from 'class-validator';

export class ApproveMerchantRequestDto {
  @IsDefined()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254, { message: 'must be an email address' })
  consoleEmail!: string;

  @IsDefined()
  @IsString({ message: 'must be 12 to 200 characters' })
  @Length(12, 200, { message: 'must be 12 to 200 characters' })
  consolePassword!: string;
}
