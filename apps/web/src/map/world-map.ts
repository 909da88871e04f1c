import { geoArea, geoGraticule10, geoNaturalEarth1, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { boxOutline, boxPolygon, type Box, type Invert } from './bbox.js';
import countries110m from 'world-atlas/countries-110m.json';

/**
 * The offline basemap: Natural Earth's 1:110m countries (world-atlas, bundled into this lazily loaded
 * chunk, so the map needs no tile server and no network), drawn with d3-geo on a 2D canvas, which
 * Chromium rasterizes in software: no GPU or WebGL needed.
 */
const topology = countries110m as unknown as Topology<{
  countries: GeometryCollection;
  land: GeometryCollection;
}>;
const land = feature(topology, topology.objects.land);
const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);
const graticule = geoGraticule10();

export interface MapFeature {
  readonly id: string;
  readonly geometry: GeoPermissibleObjects;
}

/**
 * GeoJSON (RFC 7946) winds exterior rings counterclockwise; d3-geo, on the sphere, reads a ring as
 * enclosing the area to its right, so such a polygon would fill the rest of the world. A polygon that
 * covers more than half the sphere is wound the other way round.
 */
export function windForSphere(geometry: GeoPermissibleObjects): GeoPermissibleObjects {
  const shape = geometry as { readonly type?: string; readonly coordinates?: unknown };
  if (shape.type !== 'Polygon' && shape.type !== 'MultiPolygon') return geometry;
  if (geoArea(geometry) <= 2 * Math.PI) return geometry;
  const reversed = (rings: readonly (readonly unknown[])[]) => rings.map((ring) => [...ring].reverse());
  const coordinates =
    shape.type === 'Polygon'
      ? reversed(shape.coordinates as unknown[][])
      : (shape.coordinates as unknown[][][]).map(reversed);
  return { ...shape, coordinates } as GeoPermissibleObjects;
}

export interface MapColors {
  readonly water: string;
  readonly land: string;
  readonly lines: string;
  readonly feature: string;
}

/**
 * The area a focused map shows: the box with as much again on every side (at least 2°), so the
 * footprint sits in its surroundings and still fills a good part of the map; clamped to the globe.
 */
export function focusArea(box: Box): Box {
  const [west, south, east, north] = box;
  const width = east >= west ? east - west : east + 360 - west;
  const padX = Math.max(width, 2);
  const padY = Math.max(north - south, 2);
  return [
    Math.max(-180, west - padX),
    Math.max(-90, south - padY),
    Math.min(180, west + width + padX),
    Math.min(90, north + padY),
  ];
}

/**
 * Draws the world and `features` (their geometries, outlined and lightly filled) on `canvas`: the
 * whole world, or the surroundings of `focus`; `outline` (a chosen box) dashed on top. Answers how to map a point of the canvas (CSS pixels)
 * back to longitude and latitude, for selections drawn on it.
 */
export function drawWorld(
  canvas: HTMLCanvasElement,
  features: readonly MapFeature[],
  colors: MapColors,
  focus?: Box,
  outline?: Box,
): Invert {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = Math.round(width / 2);
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.height = `${height}px`;
  const projection = geoNaturalEarth1().fitExtent(
    [
      [4, 4],
      [width - 4, height - 4],
    ],
    focus ? windForSphere(boxPolygon(focusArea(focus))) : { type: 'Sphere' },
  );
  const invert: Invert = (x, y) => projection.invert?.([x, y]) ?? null;
  const context = canvas.getContext('2d');
  if (!context) return invert;
  context.scale(ratio, ratio);
  const path = geoPath(projection, context);

  context.beginPath();
  path({ type: 'Sphere' });
  context.fillStyle = colors.water;
  context.fill();

  context.beginPath();
  path(graticule);
  context.strokeStyle = colors.lines;
  context.lineWidth = 0.3;
  context.stroke();

  context.beginPath();
  path(land);
  context.fillStyle = colors.land;
  context.fill();

  context.beginPath();
  path(borders);
  context.strokeStyle = colors.lines;
  context.lineWidth = 0.5;
  context.stroke();

  for (const item of features) {
    context.beginPath();
    path(windForSphere(item.geometry));
    context.globalAlpha = 0.25;
    context.fillStyle = colors.feature;
    context.fill();
    context.globalAlpha = 1;
    context.strokeStyle = colors.feature;
    context.lineWidth = 1.5;
    context.stroke();
  }
  if (outline) {
    context.beginPath();
    path(windForSphere(boxOutline(outline)));
    context.setLineDash([6, 4]);
    context.strokeStyle = colors.lines;
    context.lineWidth = 1.5;
    context.stroke();
    context.setLineDash([]);
  }
  return invert;
}
