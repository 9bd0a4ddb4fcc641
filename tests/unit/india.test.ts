import { describe, it, expect } from 'vitest';
import { STATES_AND_CITIES, STATE_NAMES, citiesOf, isCityOf } from '../../shared/domain/india.ts';

const CORRECT_KEYS = [
  // 28 states
  'Andhra Pradesh',
  'Arunachal Pradesh',
  'Assam',
  'Bihar',
  'Chhattisgarh',
  'Goa',
  'Gujarat',
  'Haryana',
  'Himachal Pradesh',
  'Jharkhand',
  'Karnataka',
  'Kerala',
  'Madhya Pradesh',
  'Maharashtra',
  'Manipur',
  'Meghalaya',
  'Mizoram',
  'Nagaland',
  'Odisha',
  'Punjab',
  'Rajasthan',
  'Sikkim',
  'Tamil Nadu',
  'Telangana',
  'Tripura',
  'Uttar Pradesh',
  'Uttarakhand',
  'West Bengal',
  // 8 union territories
  'Andaman and Nicobar Islands',
  'Chandigarh',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Delhi',
  'Jammu and Kashmir',
  'Ladakh',
  'Lakshadweep',
  'Puducherry',
];
const MISSPELT: Record<string, string> = { 'Himachal Pardesh': 'Himachal Pradesh', Puduchery: 'Puducherry' };
const byName = (a: string, b: string): number => a.localeCompare(b, 'en');

describe('india states and cities', () => {
  it('has all 28 states and 8 union territories under their correct names', () => {
    expect(CORRECT_KEYS).toHaveLength(36);
    for (const key of CORRECT_KEYS) expect(Object.hasOwn(STATES_AND_CITIES, key), key).toBe(true);
  });

  it('has exactly the correct keys plus the two misspelt variants', () => {
    expect(Object.keys(STATES_AND_CITIES).sort(byName)).toEqual([...CORRECT_KEYS, ...Object.keys(MISSPELT)].sort(byName));
  });

  it('maps each misspelt key to the same cities as its correct spelling', () => {
    for (const [misspelt, correct] of Object.entries(MISSPELT)) {
      expect(Object.hasOwn(STATES_AND_CITIES, misspelt), misspelt).toBe(true);
      expect(citiesOf(misspelt)).toEqual(citiesOf(correct));
      expect(citiesOf(misspelt).length).toBeGreaterThan(0);
    }
  });

  it('lists at least 500 cities across the correct keys', () => {
    const total = CORRECT_KEYS.reduce((n, key) => n + citiesOf(key).length, 0);
    expect(total).toBeGreaterThanOrEqual(500);
  });

  it('has non-empty, trimmed, duplicate-free, alphabetically sorted city lists', () => {
    for (const [state, cities] of Object.entries(STATES_AND_CITIES)) {
      expect(cities.length, state).toBeGreaterThan(0);
      expect(new Set(cities).size, state).toBe(cities.length);
      expect([...cities].sort(byName), state).toEqual(cities);
      for (const city of cities) expect(city, state).toBe(city.trim());
    }
  });

  it('includes key cities', () => {
    for (const city of ['Mumbai', 'Thane', 'Pune']) expect(isCityOf('Maharashtra', city)).toBe(true);
    expect(isCityOf('Karnataka', 'Bengaluru')).toBe(true);
    expect(isCityOf('Tamil Nadu', 'Chennai')).toBe(true);
    expect(isCityOf('West Bengal', 'Kolkata')).toBe(true);
    expect(isCityOf('Delhi', 'New Delhi')).toBe(true);
    expect(isCityOf('Andhra Pradesh', 'Visakhapatnam')).toBe(true);
  });

  it('exposes STATE_NAMES as all keys sorted alphabetically', () => {
    expect(STATE_NAMES).toEqual(Object.keys(STATES_AND_CITIES).sort(byName));
    expect(STATE_NAMES).toHaveLength(38);
  });

  it('citiesOf returns the list for known states and an empty array otherwise', () => {
    expect(citiesOf('Maharashtra')).toBe(STATES_AND_CITIES.Maharashtra);
    expect(citiesOf('Atlantis')).toEqual([]);
    expect(citiesOf('')).toEqual([]);
    expect(citiesOf('constructor')).toEqual([]);
    expect(citiesOf('toString')).toEqual([]);
  });

  it('isCityOf matches only cities of the given state', () => {
    expect(isCityOf('Maharashtra', 'Mumbai')).toBe(true);
    expect(isCityOf('Himachal Pardesh', 'Shimla')).toBe(true);
    expect(isCityOf('Puduchery', 'Karaikal')).toBe(true);
    expect(isCityOf('Karnataka', 'Mumbai')).toBe(false);
    expect(isCityOf('Maharashtra', 'Atlantis')).toBe(false);
    expect(isCityOf('Atlantis', 'Mumbai')).toBe(false);
    expect(isCityOf('Maharashtra', '')).toBe(false);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(STATES_AND_CITIES)).toBe(true);
    expect(Object.isFrozen(citiesOf('Goa'))).toBe(true);
    expect(Object.isFrozen(STATE_NAMES)).toBe(true);
  });
});
