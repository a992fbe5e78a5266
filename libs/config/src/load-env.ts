import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/** Thrown before Nest boots; its message is the one line an operator needs. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the variables `EnvClass` declares (each field `@Expose()`d, named as the variable),
 * applies its defaults and transforms, and validates them all at once. Values are never echoed:
 * some of them (DATABASE_URL, ADMIN_TOKEN) carry secrets.
 */
export function loadEnv<T extends object>(
  EnvClass: new () => T,
  env: Record<string, string | undefined> = process.env,
): Readonly<T> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(EnvClass, present, {
    excludeExtraneousValues: true,
    exposeDefaultValues: true,
  });
  const errors = validateSync(config, { forbidUnknownValues: true, stopAtFirstError: true });
  if (errors.length > 0) {
    throw new ConfigError(`Invalid configuration: ${errors.map(describe).join('; ')}`);
  }
  return Object.freeze(config);
}

function describe(error: ValidationError): string {
  const reasons = [...new Set(Object.values(error.constraints ?? {}))];
  return `${error.property} ${reasons.join(', ') || 'is invalid'}`;
}

/** For main.ts: invalid configuration ends the process with its one line, before Nest boots. */
export function loadEnvOrExit<T extends object>(
  EnvClass: new () => T,
  env: Record<string, string | undefined> = process.env,
): Readonly<T> {
  try {
    return loadEnv(EnvClass, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
