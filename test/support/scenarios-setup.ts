import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import globalSetup from './global-setup';

/**
 * The scenarios run the built apps as real processes: one build for the run (scripts/build.mjs,
 * only when a source is newer than dist/), then the services every tier shares.
 */
export default async function scenariosSetup(): Promise<void> {
  execFileSync(process.execPath, [join(__dirname, '../../scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  await globalSetup();
}
