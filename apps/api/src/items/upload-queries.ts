import type { RequestHandler } from 'express';
import { z } from 'zod';
import { idSchema, type UploadStatusRecord } from '@portal/contracts';
import { openUploadStatuses } from '@portal/domain';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { requireFound } from '@portal/commands';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { findAssetOfVisibleItem, findUploadOfVisibleItem } from '@portal/read-model-portal-objects';

/**
 * `GET .../upload`: the read model's view, with the parts the object store holds while it is open. A
 * reader's view: 404 for an item the caller cannot see, as for an unknown one.
 */
export function uploadStatus(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const row = requireFound(await findUploadOfVisibleItem(deps.pool, id, principalsOf(req)), `item ${id}`);
    const parts = openUploadStatuses.includes(row.status)
      ? ((await deps.objectStore.listParts(row.key, row.upload_id)) ?? [])
      : [];
    const answer: UploadStatusRecord = {
      portalItemId: row.item_id,
      uploadId: row.upload_id,
      bucket: row.bucket,
      key: row.key,
      status: row.status,
      statusMessage: row.status_message,
      partSize: Number(row.part_size),
      partCount: row.part_count,
      size: row.size_bytes === null ? null : Number(row.size_bytes),
      fileName: row.file_name,
      contentType: row.content_type,
      partsReceived: parts,
      bytesReceived: parts.reduce((sum, part) => sum + part.size, 0),
      expiresAt: row.expires_at.toISOString(),
      completionRequestedAt: row.completion_requested_at?.toISOString() ?? null,
    };
    res.json(answer);
  };
}

const assetParamsSchema = z.object({ id: idSchema, assetId: idSchema });

/**
 * An asset's `href`: redirects to a short-lived presigned GET, so the bytes never pass through the API.
 * Whoever may read the item may download its assets; for anyone else it answers 404, as for an unknown
 * asset, and no URL is signed.
 */
export function downloadAsset(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id, assetId } = parseInput(assetParamsSchema, req.params, 'path');
    const asset = requireFound(
      await findAssetOfVisibleItem(deps.pool, id, assetId, principalsOf(req)),
      `asset ${assetId} of item ${id}`,
    );
    const url = await deps.objectStore.presignDownload(asset.key, deps.config.DOWNLOAD_URL_TTL_SECONDS, {
      fileName: asset.file_name,
      contentType: asset.content_type,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, url);
  };
}
