/**
 * The sandbox's own product catalog: ~50 product types, each with a base price range and ordered option names
 * with their values, in cove's own words. Generic type names (T-Shirt, Board Game) may coincide with τ²'s;
 * the catalog is not derived from τ²'s.
 */
export interface ProductType {
  readonly name: string;
  /** Range of the product's base price in dollars; variants vary within ±10 % of the base. */
  readonly minPrice: number;
  readonly maxPrice: number;
  /** Option names in output order, each with its possible values. */
  readonly options: readonly (readonly [name: string, values: readonly string[]])[];
}

// name | base price range | option: value, value, ...; option: ...
const TABLE = `
T-Shirt              | 18-35     | fit: slim, regular, relaxed; color: white, charcoal, olive, burgundy, sky blue; size: XS, S, M, L, XL
Hoodie               | 40-75     | size: S, M, L, XL; color: heather grey, black, forest green, maroon; closure: pullover, full zip
Denim Jeans          | 45-95     | waist: 28, 30, 32, 34, 36; inseam: 30, 32, 34; wash: light, medium, dark, black
Rain Jacket          | 70-160    | size: S, M, L, XL, XXL; color: yellow, navy, olive, orange; hood: packable, fixed
Wool Beanie          | 15-35     | color: cream, charcoal, mustard, teal, rust; knit: ribbed, cable, waffle; cuff: cuffed, slouchy
Trail Running Shoes  | 90-170    | size: 7, 8, 9, 10, 11, 12; color: slate, coral, lime, black; heel drop: 4mm, 8mm
Leather Belt         | 25-60     | length: 32 in, 34 in, 36 in, 38 in, 40 in; color: tan, dark brown, black; buckle: brass, nickel, matte black
Winter Gloves        | 20-55     | size: S, M, L, XL; lining: fleece, insulated, merino; touchscreen tips: yes, no
Crossbody Bag        | 35-120    | color: camel, black, olive, wine; material: canvas, vegan leather, nylon; strap: adjustable, chain
Duffel Bag           | 50-140    | capacity: 30L, 45L, 60L, 80L; color: black, khaki, navy, red; material: waxed canvas, ripstop nylon
Soundbar             | 150-600   | channels: 2.0, 2.1, 3.1, 5.1; color: black, white; subwoofer: wireless, built-in, none
Turntable            | 120-450   | drive: belt, direct; speeds: 33/45, 33/45/78; finish: walnut, black, white; preamp: built-in, external
Computer Monitor     | 180-650   | diagonal: 24 in, 27 in, 32 in, 34 in; resolution: 1080p, 1440p, 2160p; refresh rate: 60Hz, 144Hz, 165Hz
Webcam               | 40-180    | resolution: 720p, 1080p, 2160p; frame rate: 30fps, 60fps; mount: clip, tripod; microphone: mono, stereo
USB-C Hub            | 25-90     | ports: 4-in-1, 7-in-1, 10-in-1; finish: graphite, silver, black; cable length: 15cm, 30cm
Drawing Tablet       | 60-380    | active area: small, medium, large; pen: battery-free, rechargeable; link: USB, Bluetooth
Fitness Tracker      | 50-180    | band color: black, lavender, sand, teal; band size: S/M, M/L; screen: monochrome, color; GPS: built-in, phone
Lawn Mower           | 180-650   | power: corded electric, cordless, gas; cutting width: 16 in, 19 in, 21 in; drive: push, self-propelled
Blender              | 60-260    | jar size: 48 oz, 64 oz, 72 oz; motor: 700W, 1000W, 1400W; color: black, red, brushed steel, white
Stand Mixer          | 250-550   | bowl size: 4.5 qt, 5 qt, 6 qt; color: tomato red, sage, matte black, cream, cobalt; head: tilt, bowl-lift
Air Fryer            | 60-200    | capacity: 3 qt, 5 qt, 6 qt, 8 qt; color: black, white, steel; baskets: single, dual; controls: dial, touch
Cast Iron Skillet    | 20-90     | diameter: 8 in, 10 in, 12 in, 15 in; finish: pre-seasoned, enameled; handle: long, loop
Chef's Knife         | 35-180    | blade length: 6 in, 8 in, 10 in; steel: German, VG-10, carbon; handle: olive wood, G10, polymer
Dinnerware Set       | 60-220    | place settings: 4, 6, 8; body: stoneware, porcelain, bone china; glaze: white, speckled, slate, sage
Dutch Oven           | 80-380    | capacity: 3.5 qt, 5.5 qt, 7 qt; color: cherry, flame, marine, white, graphite; knob: phenolic, steel
Rice Cooker          | 35-260    | capacity: 3 cups, 5.5 cups, 10 cups; heating: plate, induction, pressure; finish: white, steel
Throw Blanket        | 25-110    | size: 50x60 in, 60x80 in; fabric: sherpa, cotton knit, faux fur, wool; color: oatmeal, blush, sage, navy
Sheet Set            | 40-180    | bed size: twin, full, queen, king; weave: percale, sateen, linen, bamboo; color: white, ivory, dusty blue
Bed Pillow           | 25-95     | fill: down alternative, shredded foam, latex, feather; firmness: soft, medium, firm; size: standard, king
Floor Lamp           | 60-240    | finish: brass, matte black, nickel; shade: linen, paper, glass; height: 58 in, 64 in, 70 in
Area Rug             | 70-420    | size: 3x5 ft, 5x8 ft, 8x10 ft; pattern: geometric, medallion, solid, striped; pile: low, shag
Standing Desk        | 250-750   | top width: 48 in, 55 in, 60 in, 72 in; top finish: walnut, white, bamboo, black oak; motor: single, dual
Planter              | 15-90     | diameter: 6 in, 8 in, 10 in, 12 in; material: terracotta, ceramic, fiberglass, concrete; drainage: hole, no hole
Camping Tent         | 90-480    | sleeps: 1, 2, 4, 6; season rating: 3-season, 4-season; color: forest, orange, tan
Sleeping Bag         | 60-320    | rating: 40F, 20F, 0F; fill: synthetic, down; length: regular, long; shape: mummy, rectangular
Kayak Paddle         | 60-280    | length: 220 cm, 230 cm, 240 cm; shaft: aluminum, fiberglass, carbon; blade: symmetric, asymmetric
Tennis Racket        | 90-260    | head size: 98 sq in, 100 sq in, 105 sq in; grip: 1, 2, 3, 4; weight: light, standard, heavy
Kettlebell           | 30-140    | weight: 8 kg, 12 kg, 16 kg, 20 kg, 24 kg; finish: powder coat, vinyl, competition steel
Rowing Machine       | 300-1200  | resistance: air, magnetic, water; frame: aluminum, steel, ash wood; console: basic, Bluetooth
Board Game           | 20-90     | edition: standard, deluxe, collector; players: 2-4, 2-6, 3-8; language: English, Spanish, French
Building Blocks Set  | 25-200    | piece count: 250, 500, 1000, 2000; age: 4+, 8+, 12+, 18+; theme: city, space, castle, vehicles
Acoustic Guitar      | 180-900   | body: dreadnought, concert, parlor; top wood: spruce, cedar, mahogany; pickup: none, piezo; hand: right, left
Digital Piano        | 350-1500  | keys: 61, 76, 88; action: semi-weighted, weighted, graded hammer; finish: black, white, rosewood
Fountain Pen         | 25-220    | nib: EF, F, M, B; barrel: resin, aluminum, brass; color: black, teal, burgundy, clear
Scented Candle       | 15-55     | scent: cedar and sage, sea salt, fig, vanilla bean, citrus; size: 8 oz, 14 oz, 22 oz; wicks: 1, 3
Hair Dryer           | 35-300    | wattage: 1600W, 1875W, 2000W; technology: ionic, ceramic, tourmaline; color: black, rose, white
Dog Harness          | 20-55     | size: XS, S, M, L, XL; color: red, blue, black, camo; style: step-in, overhead, no-pull
Cat Tree             | 50-220    | height: 34 in, 48 in, 62 in, 72 in; color: beige, grey, dark brown; platforms: 3, 4, 5
Dash Cam             | 50-250    | cameras: front, front and rear; resolution: 1080p, 1440p, 2160p; card: 32GB, 64GB, 128GB
Cordless Drill       | 60-250    | voltage: 12V, 18V, 20V; battery: 1.5Ah, 2Ah, 4Ah; chuck: 3/8 in, 1/2 in; kit: bare tool, with charger
`;

function parseRow(row: string): ProductType {
  const [name, range, options] = row.split('|').map((s) => s.trim());
  const [minPrice, maxPrice] = (range ?? '').split('-').map(Number);
  if (name === undefined || options === undefined || minPrice === undefined || maxPrice === undefined) {
    throw new Error(`bad catalog row: ${row}`);
  }
  return {
    name,
    minPrice,
    maxPrice,
    options: options.split(';').map((spec) => {
      const [option, values] = spec.split(':').map((s) => s.trim());
      if (option === undefined || values === undefined) throw new Error(`bad catalog option: ${spec}`);
      return [option, values.split(',').map((v) => v.trim())] as const;
    }),
  };
}

/** The product types, in a fixed order (the generator shuffles the output order per seed). */
export const CATALOG: readonly ProductType[] = TABLE.split('\n')
  .filter((row) => row.trim() !== '')
  .map(parseRow);

/** Number of distinct option combinations of a type. */
export function combinationCount(type: ProductType): number {
  return type.options.reduce((n, [, values]) => n * values.length, 1);
}

/** The option map of combination number `index` (mixed radix over the options, first option slowest). */
export function combination(type: ProductType, index: number): Map<string, string> {
  const picks: [string, string][] = [];
  let rest = index;
  for (let i = type.options.length - 1; i >= 0; i--) {
    const [option, values] = type.options[i] as (typeof type.options)[number];
    picks.push([option, values[rest % values.length] as string]);
    rest = Math.floor(rest / values.length);
  }
  return new Map(picks.reverse());
}
