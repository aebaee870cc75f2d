// Plain-JSON view of an airline db.json (JSON.parse) and the structural facts of τ²'s DB that the airline sandbox
// mirrors, checked independently of the generator's code.

export interface DateStatusJson {
  status: string;
  available_seats?: Record<string, number>;
  prices?: Record<string, number>;
  [time: string]: unknown;
}
export interface FlightJson {
  origin: string;
  destination: string;
  flight_number: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, DateStatusJson>;
}
export interface PassengerJson {
  first_name: string;
  last_name: string;
  dob: string;
}
export interface PaymentMethodJson {
  source: string;
  id: string;
  brand?: string;
  last_four?: string;
  amount?: number;
}
export interface UserJson {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: Record<string, string>;
  email: string;
  dob: string;
  payment_methods: Record<string, PaymentMethodJson>;
  saved_passengers: PassengerJson[];
  membership: string;
  reservations: string[];
}
export interface ReservationFlightJson {
  origin: string;
  destination: string;
  flight_number: string;
  date: string;
  price: number;
}
export interface ReservationJson {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: string;
  cabin: string;
  flights: ReservationFlightJson[];
  passengers: PassengerJson[];
  payment_history: { payment_id: string; amount: number }[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: string;
}
export interface AirlineJson {
  flights: Record<string, FlightJson>;
  users: Record<string, UserJson>;
  reservations: Record<string, ReservationJson>;
}

/** τ²'s 20 airports (`list_all_airports`). */
const AIRPORTS = new Set(
  'SFO JFK LAX ORD DFW DEN SEA ATL MIA BOS PHX IAH LAS MCO EWR CLT MSP DTW PHL LGA'.split(' '),
);
const CLOCK = '2024-05-15T15:00:00';
const CLOCK_DATE = '2024-05-15';
const DATES = Array.from({ length: 30 }, (_, i) => `2024-05-${String(i + 1).padStart(2, '0')}`);
const PRICE_RANGES: Record<string, [number, number]> = {
  basic_economy: [50, 100],
  economy: [100, 200],
  business: [200, 500],
};
const FREE_BAGS: Record<string, Record<string, number>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};
const TIME_KEYS: Record<string, string> = {
  landed: 'status,actual_departure_time_est,actual_arrival_time_est',
  flying: 'status,actual_departure_time_est,estimated_arrival_time_est',
  delayed: 'status,estimated_departure_time_est,estimated_arrival_time_est',
  'on time': 'status,estimated_departure_time_est,estimated_arrival_time_est',
};
/** A status time: May 2024, or the last minutes of April 30 for an early first flight (τ² has those too). */
const ISO = /^2024-0[45]-\d\dT\d\d:\d\d:00$/;

const keys = (o: object) => Object.keys(o).join(',');
/** Minutes since 2024-05-01 00:00 of an ISO time without zone. */
const minutesOf = (iso: string) => (Date.parse(`${iso}Z`) - Date.UTC(2024, 4, 1)) / 60_000;
/** Minutes after midnight of `HH:MM:SS[+1]` (a `+1` adds a day). */
const clockMinutes = (t: string) =>
  Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)) + (t.endsWith('+1') ? 1440 : 0);
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const personKey = (p: PassengerJson) => `${p.first_name} ${p.last_name}`.toLowerCase();

/** The structural facts of τ²'s airline DB that the sandbox keeps; returns violations (empty when all hold). */
export function structuralProblems(db: AirlineJson): string[] {
  const problems: string[] = [];
  const fail = (where: string, what: string) => {
    if (problems.length < 20) problems.push(`${where}: ${what}`);
  };
  if (keys(db) !== 'flights,users,reservations') fail('$', `top-level keys ${keys(db)}`);
  checkFlights(db, fail);
  checkUsers(db, fail);
  for (const [id, r] of Object.entries(db.reservations)) checkReservation(db, id, r, fail);
  return problems;
}

type Fail = (where: string, what: string) => void;

function checkFlights(db: AirlineJson, fail: Fail): void {
  const blocks = new Map<string, number>();
  Object.entries(db.flights).forEach(([number, f], i) => {
    if (number !== `HAT${String(i + 1).padStart(3, '0')}` || f.flight_number !== number)
      fail(number, 'number');
    if (
      keys(f) !==
      'origin,destination,flight_number,scheduled_departure_time_est,scheduled_arrival_time_est,dates'
    )
      fail(number, `keys ${keys(f)}`);
    if (!AIRPORTS.has(f.origin) || !AIRPORTS.has(f.destination) || f.origin === f.destination)
      fail(number, 'route');
    if (!/^\d\d:00:00$/.test(f.scheduled_departure_time_est)) fail(number, 'departure time');
    if (!/^\d\d:[03]0:00(\+1)?$/.test(f.scheduled_arrival_time_est)) fail(number, 'arrival time');
    const block = clockMinutes(f.scheduled_arrival_time_est) - clockMinutes(f.scheduled_departure_time_est);
    if (block < 60 || block > 360) fail(number, `block time ${block}`);
    const route = `${f.origin}-${f.destination}`;
    if ((blocks.get(route) ?? block) !== block) fail(number, 'block time differs on its route');
    blocks.set(route, block);
    if (keys(f.dates) !== DATES.join(',')) fail(number, 'dates');
    for (const [date, s] of Object.entries(f.dates))
      checkStatus(`${number} ${date}`, f, date, s, block, fail);
  });
}

function checkStatus(
  where: string,
  f: FlightJson,
  date: string,
  s: DateStatusJson,
  block: number,
  fail: Fail,
) {
  const scheduled = minutesOf(`${date}T${f.scheduled_departure_time_est.slice(0, 8)}`);
  const clock = minutesOf(CLOCK);
  if (date > CLOCK_DATE) {
    if (s.status !== 'available' || keys(s) !== 'status,available_seats,prices') {
      fail(where, 'not available');
      return;
    }
    for (const [name, m] of [
      ['seats', s.available_seats],
      ['prices', s.prices],
    ] as const) {
      if (keys(m ?? {}) !== 'basic_economy,economy,business') fail(where, `${name} keys`);
    }
    for (const [cabin, [low, high]] of Object.entries(PRICE_RANGES)) {
      const seats = s.available_seats?.[cabin] ?? -1;
      const price = s.prices?.[cabin] ?? -1;
      if (!Number.isInteger(seats) || seats < 0 || seats > 20) fail(where, `${cabin} seats ${seats}`);
      if (!Number.isInteger(price) || price < low || price > high) fail(where, `${cabin} price ${price}`);
    }
    return;
  }
  if (s.status === 'cancelled') {
    if (date === CLOCK_DATE || keys(s) !== 'status') fail(where, 'cancelled');
    return;
  }
  if (keys(s) !== TIME_KEYS[s.status]) {
    fail(where, `status ${s.status} with keys ${keys(s)}`);
    return;
  }
  const [, first, second] = keys(s).split(',') as [string, string, string];
  const [from, to] = [s[first], s[second]] as [string, string];
  if (!ISO.test(from) || !ISO.test(to)) {
    fail(where, 'time format');
    return;
  }
  const [depart, land] = [minutesOf(from), minutesOf(to)];
  if (land <= depart) fail(where, 'lands before it leaves');
  if (date < CLOCK_DATE && s.status !== 'landed') fail(where, `${s.status} before the clock's date`);
  const ok: Record<string, boolean> = {
    landed: land <= clock && Math.abs(depart - scheduled) <= 30,
    flying: depart <= clock && land > clock && Math.abs(depart - scheduled) <= 30,
    'on time': depart > clock && Math.abs(depart - scheduled) <= 30,
    delayed: depart > clock && depart > scheduled + 30 && land - depart === block,
  };
  if (ok[s.status] !== true) fail(where, `${s.status} at ${from}–${to} against the clock ${CLOCK}`);
}

function checkUsers(db: AirlineJson, fail: Fail): void {
  const owned = new Map<string, string[]>();
  for (const r of Object.values(db.reservations))
    owned.set(r.user_id, [...(owned.get(r.user_id) ?? []), r.reservation_id]);
  for (const [id, u] of Object.entries(db.users)) {
    const first = u.name.first_name.toLowerCase();
    const last = u.name.last_name.toLowerCase();
    if (keys(u) !== 'user_id,name,address,email,dob,payment_methods,saved_passengers,membership,reservations')
      fail(id, `keys ${keys(u)}`);
    if (u.user_id !== id || !new RegExp(`^${first}_${last}_\\d{4}$`).test(id)) fail(id, 'user id');
    if (!new RegExp(`^${first}\\.${last}\\d{4}@example\\.com$`).test(u.email)) fail(id, `email ${u.email}`);
    if (keys(u.address) !== 'address1,address2,city,country,state,zip' || u.address.country !== 'USA')
      fail(id, 'address');
    if (!/^\d{5}$/.test(u.address.zip ?? '')) fail(id, 'zip');
    checkDob(id, u.dob, fail);
    if (!['gold', 'silver', 'regular'].includes(u.membership)) fail(id, 'membership');
    const methods = Object.entries(u.payment_methods);
    if (methods.length < 1 || methods.length > 8) fail(id, `${methods.length} payment methods`);
    for (const [mid, m] of methods) {
      if (m.id !== mid || !new RegExp(`^${m.source}_\\d{7}$`).test(mid)) fail(mid, 'payment method id');
      const k = keys(m);
      if (m.source === 'credit_card') {
        if (k !== 'source,id,brand,last_four' || !/^\d{4}$/.test(m.last_four ?? '')) fail(mid, 'card fields');
        if (!['visa', 'mastercard'].includes(m.brand ?? '')) fail(mid, 'brand');
      } else if (m.source === 'gift_card') {
        const a = m.amount ?? -1;
        if (k !== 'source,id,amount' || !Number.isInteger(a) || a < 0 || a > 300) fail(mid, 'gift card');
      } else if (m.source === 'certificate') {
        if (k !== 'source,id,amount' || ![100, 150, 250, 500].includes(m.amount ?? -1))
          fail(mid, 'certificate');
      } else fail(mid, `source ${m.source}`);
    }
    if (u.saved_passengers.length < 1 || u.saved_passengers.length > 2) fail(id, 'saved passengers');
    for (const p of u.saved_passengers) checkPassenger(id, p, fail);
    if (JSON.stringify(u.reservations) !== JSON.stringify(owned.get(id) ?? []))
      fail(id, "reservations list differs from the user's reservations in DB order");
  }
}

function checkDob(where: string, dob: string, fail: Fail): void {
  if (!/^\d{4}-\d\d-\d\d$/.test(dob) || dob < '1950-01-01' || dob > '2000-12-31') fail(where, `dob ${dob}`);
}

function checkPassenger(where: string, p: PassengerJson, fail: Fail): void {
  if (keys(p) !== 'first_name,last_name,dob' || !/^[A-Za-z]+$/.test(p.first_name + p.last_name))
    fail(where, `passenger ${JSON.stringify(p)}`);
  checkDob(where, p.dob, fail);
}

function checkReservation(db: AirlineJson, id: string, r: ReservationJson, fail: Fail): void {
  if (
    keys(r) !==
    'reservation_id,user_id,origin,destination,flight_type,cabin,flights,passengers,payment_history,created_at,total_baggages,nonfree_baggages,insurance'
  )
    fail(id, `keys ${keys(r)}`);
  if (r.reservation_id !== id || !/^[0-9A-Z]{6}$/.test(id)) fail(id, 'reservation id');
  const user = db.users[r.user_id];
  if (user === undefined) {
    fail(id, 'unknown user');
    return;
  }
  const range = PRICE_RANGES[r.cabin];
  if (range === undefined) {
    fail(id, `cabin ${r.cabin}`);
    return;
  }
  if (!['yes', 'no'].includes(r.insurance)) fail(id, 'insurance');
  // every flight exists on its date, with the record's route, at a price of the reservation's cabin
  for (const f of r.flights) {
    const flight = db.flights[f.flight_number];
    if (keys(f) !== 'origin,destination,flight_number,date,price') fail(id, 'flight keys');
    if (flight === undefined || flight.dates[f.date] === undefined) {
      fail(id, `${f.flight_number} ${f.date}`);
      return;
    }
    if (flight.origin !== f.origin || flight.destination !== f.destination)
      fail(id, `${f.flight_number} route`);
    if (!Number.isInteger(f.price) || f.price < range[0] || f.price > range[1]) fail(id, `price ${f.price}`);
  }
  checkItinerary(db, id, r, fail);
  // passengers, payment, bags, creation time
  if (r.passengers.length < 1 || r.passengers.length > 5) fail(id, 'passenger count');
  if (new Set(r.passengers.map(personKey)).size !== r.passengers.length) fail(id, 'a passenger twice');
  for (const p of r.passengers) checkPassenger(id, p, fail);
  const pax = r.passengers.length;
  const total = (r.flights.reduce((n, f) => n + f.price, 0) + (r.insurance === 'yes' ? 30 : 0)) * pax;
  const [payment, ...more] = r.payment_history;
  const method = user.payment_methods[payment?.payment_id ?? ''];
  if (payment === undefined || more.length > 0 || keys(payment) !== 'payment_id,amount')
    fail(id, 'payment history');
  if (method === undefined || method.source === 'certificate') fail(id, 'payment method');
  if (payment?.amount !== total) fail(id, `paid ${payment?.amount}, flights and insurance cost ${total}`);
  const allowance = (FREE_BAGS[user.membership]?.[r.cabin] ?? 0) * pax;
  if (!Number.isInteger(r.total_baggages) || r.total_baggages < 0 || r.total_baggages > allowance)
    fail(id, `${r.total_baggages} bags, ${allowance} free`);
  if (r.nonfree_baggages !== 0) fail(id, 'paid bags');
  const first = r.flights[0];
  const firstFlight = first === undefined ? undefined : db.flights[first.flight_number];
  if (!/^2024-0[45]-\d\dT\d\d:\d\d:\d\d$/.test(r.created_at)) fail(id, `created_at ${r.created_at}`);
  if (r.created_at < '2024-04-30T00:00:00' || r.created_at >= '2024-05-15T00:00:00')
    fail(id, 'created_at range');
  if (first !== undefined && firstFlight !== undefined) {
    if (r.created_at >= `${first.date}T${firstFlight.scheduled_departure_time_est.slice(0, 8)}`)
      fail(id, 'created after the first departure');
  }
}

/** The legs chain as τ²'s searches offer them: one way O→D, round trip O→D→O, one stop per direction at most. */
function checkItinerary(db: AirlineJson, id: string, r: ReservationJson, fail: Fail): void {
  const turn = r.flights.findIndex((f) => f.destination === r.destination);
  const out = r.flights.slice(0, turn + 1);
  const back = r.flights.slice(turn + 1);
  if (turn < 0 || out.length > 2 || back.length > 2) {
    fail(id, 'itinerary shape');
    return;
  }
  if (r.origin === r.destination) fail(id, 'origin is the destination');
  if (r.flight_type === 'one_way' && back.length !== 0) fail(id, 'one way with a way back');
  if (r.flight_type === 'round_trip' && back.length === 0) fail(id, 'round trip without a way back');
  if (!['one_way', 'round_trip'].includes(r.flight_type)) fail(id, 'flight type');
  const direction = (legs: ReservationFlightJson[], from: string, to: string) => {
    if (legs[0]?.origin !== from || legs.at(-1)?.destination !== to) fail(id, `legs do not go ${from}→${to}`);
    for (let i = 1; i < legs.length; i++) {
      const [a, b] = [legs[i - 1] as ReservationFlightJson, legs[i] as ReservationFlightJson];
      const fa = db.flights[a.flight_number] as FlightJson;
      const fb = db.flights[b.flight_number] as FlightJson;
      const overnight = fa.scheduled_arrival_time_est.endsWith('+1');
      if (b.origin !== a.destination || b.destination === a.origin) fail(id, 'legs do not connect');
      if (b.date !== addDays(a.date, overnight ? 1 : 0))
        fail(id, 'second leg on another date than the search');
      if (!(fb.scheduled_departure_time_est >= fa.scheduled_arrival_time_est))
        fail(id, 'second leg leaves too early');
    }
  };
  direction(out, r.origin, r.destination);
  if (back.length > 0) {
    direction(back, r.destination, r.origin);
    const last = out.at(-1) as ReservationFlightJson;
    const landed = addDays(
      last.date,
      db.flights[last.flight_number]?.scheduled_arrival_time_est.endsWith('+1') ? 1 : 0,
    );
    if (!((back[0] as ReservationFlightJson).date > landed))
      fail(id, 'return leaves before the day after landing');
  }
}

/** The identifying values the sandbox must not share with τ² (checked on the raw values, not fingerprints). */
export function identifying(db: AirlineJson): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {
    'user id': new Set(),
    email: new Set(),
    'full name': new Set(),
    address1: new Set(),
    'reservation id': new Set(),
    'payment id': new Set(),
  };
  const add = (kind: string, v: string) => out[kind]?.add(v);
  for (const u of Object.values(db.users)) {
    add('user id', u.user_id);
    add('email', u.email);
    add('full name', `${u.name.first_name} ${u.name.last_name}`.toLowerCase());
    add('address1', u.address.address1 ?? '');
    for (const p of u.saved_passengers) add('full name', personKey(p));
    for (const id of Object.keys(u.payment_methods)) add('payment id', id);
    for (const id of u.reservations) add('reservation id', id);
  }
  for (const r of Object.values(db.reservations)) {
    add('reservation id', r.reservation_id);
    add('user id', r.user_id);
    for (const p of r.passengers) add('full name', personKey(p));
    for (const p of r.payment_history) add('payment id', p.payment_id);
  }
  return out;
}
