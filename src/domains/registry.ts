import { ConfigError } from '../core/errors.js';
import { airlineDomain } from './airline/index.js';
import type { Domain } from './domain.js';
import { retailDomain } from './retail/index.js';

const DOMAINS: readonly Domain[] = [retailDomain, airlineDomain];

/** Names of the built-in domains. */
export function domainNames(): string[] {
  return DOMAINS.map((d) => d.name);
}

/** The built-in domain with this name. @throws {ConfigError} for an unknown name. */
export function getDomain(name: string): Domain {
  const domain = DOMAINS.find((d) => d.name === name);
  if (domain === undefined) {
    throw new ConfigError(`unknown domain '${name}' (available: ${domainNames().join(', ')})`);
  }
  return domain;
}
