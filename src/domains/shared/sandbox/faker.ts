import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import type { Rng } from '../../../core/rng.js';

/**
 * faker's en_US instance, loaded on first use: only sandbox generation needs it, and its locale entry loads a
 * fraction of the package. It is reseeded before every use ({@link fakerFor}), so sharing it changes nothing.
 */
export function loadFaker(): Faker {
  const require = createRequire(import.meta.url);
  return (require('@faker-js/faker/locale/en_US') as { faker: Faker }).faker;
}

/** A faker instance reseeded from `rng`, so its output depends only on the entity's stream. */
export function fakerFor(faker: Faker, rng: Rng): Faker {
  faker.seed(rng.int(0, 0x7fffffff));
  return faker;
}
