import type { Faker } from '@faker-js/faker';
import type { Rng } from '../../../core/rng.js';
import { drawUntil } from './sampling.js';

/** US cities with their state code and a 3-digit zip prefix (none of them is a city of τ²'s retail DB). */
const CITIES_TABLE = `
Boston MA 021; Portland OR 972; Nashville TN 372; Atlanta GA 303; Minneapolis MN 554; Kansas City MO 641;
Omaha NE 681; Albuquerque NM 871; Tucson AZ 857; Sacramento CA 958; Salt Lake City UT 841; Las Vegas NV 891;
Milwaukee WI 532; Detroit MI 482; Louisville KY 402; Memphis TN 381; Baltimore MD 212; Raleigh NC 276;
Oklahoma City OK 731; Tulsa OK 741; Cleveland OH 441; Pittsburgh PA 152; Richmond VA 232; Boise ID 837;
Des Moines IA 503; Honolulu HI 968; Anchorage AK 995; Buffalo NY 142; Madison WI 537; Spokane WA 992;
Providence RI 029; Hartford CT 061; Burlington VT 054; Charleston SC 294; Birmingham AL 352; New Orleans LA 701;
Little Rock AR 722; Wichita KS 672; Fargo ND 581; Sioux Falls SD 571; Billings MT 591; Cheyenne WY 820;
Reno NV 895; Orlando FL 328; Tampa FL 336; Miami FL 331; St. Louis MO 631; Cincinnati OH 452;
Lexington KY 405; Jackson MS 392; Portland ME 041; Manchester NH 031; Wilmington DE 198; Newark NJ 071;
Colorado Springs CO 809; El Paso TX 799; Fresno CA 937; Bakersfield CA 933; Mesa AZ 852; Tacoma WA 984
`;

interface City {
  readonly city: string;
  readonly state: string;
  readonly zipPrefix: string;
}

const CITIES: readonly City[] = CITIES_TABLE.split(';').map((entry) => {
  const m = /^(.+) ([A-Z]{2}) (\d{3})$/.exec(entry.trim());
  if (m === null) throw new Error(`bad city entry: ${entry}`);
  return { city: m[1] as string, state: m[2] as string, zipPrefix: m[3] as string };
});

/** A τ²-shaped address (address1/address2/city/country/state/zip), in τ²'s field order. */
export interface SandboxAddress {
  readonly address1: string;
  readonly address2: string;
  readonly city: string;
  readonly country: string;
  readonly state: string;
  readonly zip: string;
}

const PRINTABLE = /^[ -~]+$/;

/**
 * A fresh US address: faker's street and unit, one of our cities, a zip inside the city's prefix. `accept` may
 * reject a street line (e.g. one of τ²'s); the draw repeats until it holds.
 */
export function makeAddress(
  faker: Faker,
  rng: Rng,
  accept: (address1: string) => boolean = () => true,
): SandboxAddress {
  const address1 = drawUntil(
    'street address',
    () => `${faker.location.buildingNumber()} ${faker.location.street()}`,
    (a) => PRINTABLE.test(a) && accept(a),
  );
  const address2 = faker.location.secondaryAddress();
  const { city, state, zipPrefix } = rng.pick(CITIES);
  const zip = `${zipPrefix}${String(rng.int(0, 99)).padStart(2, '0')}`;
  return { address1, address2, city, country: 'USA', state, zip };
}
