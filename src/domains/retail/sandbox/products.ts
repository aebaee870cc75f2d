import { pyFloatRepr } from '../../../core/py-float.js';
import type { Rng } from '../../../core/rng.js';
import { digits, drawUnique, drawUntil, quotaList } from '../../shared/sandbox/sampling.js';
import { CATALOG, combination, combinationCount } from './catalog.js';
import { isTau2CatalogId, isTau2Value } from './overlap.js';

/** One purchasable variant of a product. */
export interface SandboxVariant {
  readonly productId: string;
  readonly productName: string;
  readonly itemId: string;
  readonly options: ReadonlyMap<string, string>;
  available: boolean;
  readonly price: number;
}

export interface SandboxProduct {
  readonly productId: string;
  readonly name: string;
  readonly variants: readonly SandboxVariant[];
}

/**
 * Variants per product: 5–19, each count about equally often over the catalog (τ²: 5–20, mean 11.8), capped by
 * the type's number of option combinations.
 */
const VARIANT_COUNTS = Array.from({ length: 15 }, (_, i) => 5 + i);
/** Share of unavailable variants (τ²: 36 %); every product keeps at least one available variant. */
export const UNAVAILABLE_SHARE = 0.36;

/** Cents of a price drawn within ±10 % of `base`, at least one cent. */
function variantPrice(rng: Rng, base: number): number {
  const cents = Math.max(1, Math.round(base * 100 * (0.9 + 0.2 * rng.float())));
  return cents / 100;
}

/**
 * One product per catalog type, in a seed-shuffled order. Each product's fields depend only on (seed, type);
 * 10-digit product and item ids are unique across both kinds and never τ²'s, and no price is one of τ²'s.
 */
export function generateProducts(root: Rng, catalogIds: Set<string>): SandboxProduct[] {
  const products: SandboxProduct[] = [];
  const counts = quotaList(
    root.child('variant-counts'),
    CATALOG.length,
    VARIANT_COUNTS,
    VARIANT_COUNTS.map(() => 1),
  );
  for (const [t, type] of CATALOG.entries()) {
    const rng = root.child('product', type.name);
    const draw10 = () => digits(rng, 10);
    const productId = drawUnique('product id', draw10, catalogIds, (id) => !isTau2CatalogId(id));
    const combos = combinationCount(type);
    const count = Math.min(counts[t] as number, combos);
    const chosen = rng.sample(
      Array.from({ length: combos }, (_, i) => i),
      count,
    );
    const base = type.minPrice + (type.maxPrice - type.minPrice) * rng.float();
    const variants = chosen.map((index): SandboxVariant => {
      const itemId = drawUnique('item id', draw10, catalogIds, (id) => !isTau2CatalogId(id));
      const price = drawUntil(
        'price',
        () => variantPrice(rng, base),
        (p) => !isTau2Value('price', pyFloatRepr(p)),
      );
      return {
        productId,
        productName: type.name,
        itemId,
        options: combination(type, index),
        available: true,
        price,
      };
    });
    products.push({ productId, name: type.name, variants });
  }
  markUnavailable(root.child('availability'), products);
  return root.child('product-order').shuffle(products);
}

/** Marks exactly round(36 %) of all variants unavailable, never the one kept available per product. */
function markUnavailable(rng: Rng, products: readonly SandboxProduct[]): void {
  const candidates: SandboxVariant[] = [];
  for (const product of products) {
    const keep = rng.int(0, product.variants.length - 1);
    product.variants.forEach((v, i) => {
      if (i !== keep) candidates.push(v);
    });
  }
  const total = products.reduce((n, p) => n + p.variants.length, 0);
  for (const v of rng.sample(candidates, Math.round(total * UNAVAILABLE_SHARE))) v.available = false;
}
