import { randomInt } from 'node:crypto';

/**
 * A property test's fast-check seed: a new one each run, so that the runs between them cover more
 * sequences than one fixed seed ever would, and FC_SEED=<seed> to replay one. It is printed when the
 * test starts, and fast-check repeats it (with the path of the shrunk case) in a failure's message.
 */
export function propertySeed(property: string): number {
  const given = process.env.FC_SEED;
  const seed = given === undefined || given === '' ? randomInt(2 ** 31) : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, not ${JSON.stringify(given)}`);
  console.log(`${property}: fast-check seed ${seed} (replay with FC_SEED=${seed})`);
  return seed;
}
