/**
 * The 20 airports of τ²'s `list_all_airports`, with approximate coordinates (degrees), so that sandbox routes get
 * believable block times: a route's duration depends only on its two airports, as in τ²'s DB.
 */
const COORDINATES: Readonly<Record<string, readonly [number, number]>> = {
  SFO: [37.62, -122.38],
  JFK: [40.64, -73.78],
  LAX: [33.94, -118.41],
  ORD: [41.98, -87.9],
  DFW: [32.9, -97.04],
  DEN: [39.86, -104.67],
  SEA: [47.45, -122.31],
  ATL: [33.64, -84.43],
  MIA: [25.79, -80.29],
  BOS: [42.36, -71.01],
  PHX: [33.43, -112.01],
  IAH: [29.98, -95.34],
  LAS: [36.08, -115.15],
  MCO: [28.43, -81.31],
  EWR: [40.69, -74.17],
  CLT: [35.21, -80.94],
  MSP: [44.88, -93.22],
  DTW: [42.21, -83.35],
  PHL: [39.87, -75.24],
  LGA: [40.78, -73.87],
};

/** The IATA codes, in τ²'s `list_all_airports` order. */
export const AIRPORT_CODES: readonly string[] = Object.keys(COORDINATES);

const EARTH_RADIUS_MILES = 3959;
const CRUISE_MPH = 500;
/** Taxi, climb and descent, added to the cruise time. */
const OVERHEAD_MINUTES = 30;

function coordinates(code: string): readonly [number, number] {
  const c = COORDINATES[code];
  if (c === undefined) throw new Error(`unknown airport '${code}'`);
  return c;
}

/** Great-circle distance in miles (haversine). */
export function distanceMiles(a: string, b: string): number {
  const [lat1, lon1] = coordinates(a).map((x) => (x * Math.PI) / 180) as [number, number];
  const [lat2, lon2] = coordinates(b).map((x) => (x * Math.PI) / 180) as [number, number];
  const h =
    Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h));
}

/**
 * The scheduled block time of a route in minutes: cruise time plus overhead, rounded to 30 minutes and kept
 * within 1–6 hours (τ²'s schedules use whole and half hours from 60 to 360 minutes).
 */
export function blockMinutes(a: string, b: string): number {
  const raw = (distanceMiles(a, b) / CRUISE_MPH) * 60 + OVERHEAD_MINUTES;
  return Math.min(360, Math.max(60, Math.round(raw / 30) * 30));
}
