import { geoArea } from 'd3-geo';
import { describe, expect, it } from 'vitest';
import { focusArea, windForSphere } from './world-map.js';

describe('windForSphere', () => {
  // A bbox as GeoJSON writes it: exterior ring counterclockwise.
  const alps = {
    type: 'Polygon' as const,
    coordinates: [
      [
        [5.9, 45.8],
        [10.5, 45.8],
        [10.5, 47.8],
        [5.9, 47.8],
        [5.9, 45.8],
      ],
    ],
  };

  it('turns a counterclockwise footprint into the small area d3-geo fills', () => {
    expect(geoArea(alps)).toBeGreaterThan(2 * Math.PI);
    const wound = windForSphere(alps);
    expect(geoArea(wound)).toBeLessThan(0.01);
  });

  it('leaves geometries that already cover their small area, and points, as they are', () => {
    const wound = windForSphere(alps);
    expect(windForSphere(wound)).toBe(wound);
    const point = { type: 'Point' as const, coordinates: [7, 46] };
    expect(windForSphere(point)).toBe(point);
  });

  it('winds every polygon of a multipolygon', () => {
    const multi = { type: 'MultiPolygon' as const, coordinates: [alps.coordinates, alps.coordinates] };
    expect(geoArea(windForSphere(multi))).toBeLessThan(0.02);
  });
});

describe('focusArea', () => {
  it('pads a box by its own size on every side', () => {
    expect(focusArea([0, 40, 10, 50])).toEqual([-10, 30, 20, 60]);
  });

  it('pads a tiny box by at least 2° and stays on the globe', () => {
    expect(focusArea([179, 89, 179.5, 89.5])).toEqual([177, 87, 180, 90]);
  });
});
