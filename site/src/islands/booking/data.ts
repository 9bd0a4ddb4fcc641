import { getLocations, getServices, getTherapists } from '../../lib/api.ts';
import { cached } from './common.tsx';

let locations = cached(getLocations);
let services = cached(getServices);
let therapists = cached(getTherapists);

export const loadLocations = () => locations();
export const loadServices = () => services();
export const loadTherapists = () => therapists();

/** Forgets cached catalogue answers (tests). */
export function resetCatalogCache(): void {
  locations = cached(getLocations);
  services = cached(getServices);
  therapists = cached(getTherapists);
}
