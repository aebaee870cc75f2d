import { fileURLToPath } from 'node:url';
import type { MockScript, ScriptTurn } from '../../src/server/mock-llm/app.js';

/**
 * `cove mock-llm --mode script` scripts that play the tool-making stages (questions → tools → expand → schemas →
 * sql) on two databases of ../shared/sql, each with a reply that is not JSON (retried), SQL that fails and is
 * repaired, and a tool whose SQL never works (dropped after the repairs). The replies are written by hand from
 * the databases' schemas; what the stages must make of them is stated in the tests.
 */

export const CHINOOK = fileURLToPath(
  new URL('../../../shared/sql/chinook/Chinook_Sqlite.sqlite', import.meta.url),
);
export const NORTHWIND = fileURLToPath(
  new URL('../../../shared/sql/northwind/northwind.db', import.meta.url),
);

const json = (value: unknown): ScriptTurn => ({ content: JSON.stringify(value) });
const fn = (name: string, description: string, properties: Record<string, string>) => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(properties).map(([k, type]) => [k, { type, description: k.replace(/_/g, ' ') }]),
      ),
      required: Object.keys(properties),
    },
  },
});
const rows = (properties: Record<string, unknown>) => ({
  type: 'array',
  items: {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([k, t]) => [k, { type: t }])),
  },
});
const row = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(properties).map(([k, t]) => [k, { type: t }])),
});

/**
 * Chinook (domain `chinook`): 2 questions; q0 → search_albums, get_album_tracks; q1 → a reply that is not JSON,
 * then update_track_price and search_albums again (merged by expand); expand adds get_track, get_artist and a
 * trivial format_duration (refused); search_albums' first SQL returns the wrong column names (repaired);
 * get_artist's SQL never works (dropped). The spec: search_albums, get_album_tracks, update_track_price, get_track.
 */
export const chinookScript: MockScript = {
  questions: [
    json([
      'Which albums have "Rock" in their title?',
      'Please raise the price of the track "Balls to the Wall" to 1.29.',
    ]),
  ],
  tools: [
    json([
      fn('search_albums', 'Find albums whose title contains a text.', { title: 'string' }),
      fn('get_album_tracks', 'List the tracks of one album.', { album_id: 'integer' }),
    ]),
  ],
  expand: [
    json([
      fn('get_track', 'Look up one track by its id.', { track_id: 'integer' }),
      fn('get_artist', 'Look up one artist by its id.', { artist_id: 'integer' }),
      fn('format_duration', 'Format milliseconds as minutes and seconds.', { milliseconds: 'integer' }),
    ]),
  ],
  // one conversation: the n-th reply is the schema of the n-th tool (search_albums, get_album_tracks,
  // update_track_price, get_track, get_artist)
  schemas: [
    json(rows({ album_id: 'integer', title: 'string', artist_id: 'integer' })),
    json(rows({ track_id: 'integer', name: 'string', unit_price: 'number' })),
    json(row({ track_id: 'integer', name: 'string', unit_price: 'number' })),
    json(
      row({ track_id: 'integer', name: 'string', album_id: ['integer', 'null'], milliseconds: 'integer' }),
    ),
    json(row({ artist_id: 'integer', name: ['string', 'null'] })),
  ],
  by_task: {
    'chinook-q1': {
      tools: [
        { content: 'Here you go: [{"name": "update_track_price", ' },
        json([
          fn('update_track_price', 'Set the unit price of one track.', {
            track_id: 'integer',
            unit_price: 'number',
          }),
          fn('search_albums', 'Search albums by title.', { title: 'string' }),
        ]),
      ],
    },
    search_albums: {
      sql: [
        json({ sql: "SELECT AlbumId, Title, ArtistId FROM Album WHERE Title LIKE '%' || :title || '%'" }),
        json({
          sql: "SELECT AlbumId AS album_id, Title AS title, ArtistId AS artist_id FROM Album WHERE Title LIKE '%' || :title || '%' ORDER BY AlbumId LIMIT 20",
        }),
      ],
    },
    get_album_tracks: {
      sql: [
        json({
          sql: 'SELECT TrackId AS track_id, Name AS name, UnitPrice AS unit_price FROM Track WHERE AlbumId = :album_id ORDER BY TrackId',
        }),
      ],
    },
    update_track_price: {
      sql: [
        json({
          sql: [
            'UPDATE Track SET UnitPrice = :unit_price WHERE TrackId = :track_id',
            'SELECT TrackId AS track_id, Name AS name, UnitPrice AS unit_price FROM Track WHERE TrackId = :track_id',
          ],
        }),
      ],
    },
    get_track: {
      sql: [
        json({
          sql: 'SELECT TrackId AS track_id, Name AS name, AlbumId AS album_id, Milliseconds AS milliseconds FROM Track WHERE TrackId = :track_id',
        }),
      ],
    },
    get_artist: {
      sql: [
        json({ sql: 'DROP TABLE Artist' }),
        json({ sql: 'SELECT * FROM Artist WHERE ArtistId = :artist_id' }),
      ],
    },
  },
};

/**
 * Northwind (domain `northwind`): the questions reply is not JSON the first time (retried); 2 questions, both
 * answered with search_products and update_product_stock; expand adds get_supplier; update_product_stock's first
 * SQL names a column that does not exist (repaired). The spec: search_products, update_product_stock,
 * get_supplier.
 */
export const northwindScript: MockScript = {
  questions: [
    { content: '1. Which products are out of stock?\n2. ...' },
    json(['Which products from "Exotic Liquids" are still in stock?', 'Set the stock of Chai to 50 units.']),
  ],
  tools: [
    json([
      fn('search_products', 'Find products whose name contains a text.', { product_name: 'string' }),
      fn('update_product_stock', 'Set the units in stock of one product.', {
        product_id: 'integer',
        units_in_stock: 'integer',
      }),
    ]),
  ],
  expand: [json([fn('get_supplier', 'Look up one supplier by its id.', { supplier_id: 'integer' })])],
  schemas: [
    json(
      rows({
        product_id: 'integer',
        product_name: 'string',
        unit_price: ['number', 'null'],
        units_in_stock: ['integer', 'null'],
      }),
    ),
    json(row({ product_id: 'integer', product_name: 'string', units_in_stock: ['integer', 'null'] })),
    json(row({ supplier_id: 'integer', company_name: 'string', country: ['string', 'null'] })),
  ],
  by_task: {
    search_products: {
      sql: [
        json({
          sql: "SELECT ProductID AS product_id, ProductName AS product_name, UnitPrice AS unit_price, UnitsInStock AS units_in_stock FROM Products WHERE ProductName LIKE '%' || :product_name || '%' ORDER BY ProductID LIMIT 20",
        }),
      ],
    },
    update_product_stock: {
      sql: [
        json({ sql: ['UPDATE Products SET Stock = :units_in_stock WHERE ProductID = :product_id'] }),
        json({
          sql: [
            'UPDATE Products SET UnitsInStock = :units_in_stock WHERE ProductID = :product_id',
            'SELECT ProductID AS product_id, ProductName AS product_name, UnitsInStock AS units_in_stock FROM Products WHERE ProductID = :product_id',
          ],
        }),
      ],
    },
    get_supplier: {
      sql: [
        json({
          sql: 'SELECT SupplierID AS supplier_id, CompanyName AS company_name, Country AS country FROM Suppliers WHERE SupplierID = :supplier_id',
        }),
      ],
    },
  },
};
