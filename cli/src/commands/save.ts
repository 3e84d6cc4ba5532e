import type { SavedUserImage, SaveImageInput, UserImageDetail } from '@gpucloud/control-plane/api';
import { parseCommand, requirePositionals } from '../args.js';
import { findContainer } from '../container-ref.js';
import type { CliContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { formatBytes, renderJson } from '../output.js';
import { progressOn } from '../progress.js';

const POLL_MS = 1000;

/**
 * gpucloud save <name> --image-name x [--tag y]: 保存镜像 (POST /api/containers/{id}/save-image),
 * then the save's progress until the image is ready (or failed).
 */
export async function saveCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'save',
    args,
    {
      'image-name': { type: 'string' },
      tag: { type: 'string' },
      description: { type: 'string' },
      'no-wait': { type: 'boolean' },
    },
    ctx.msg,
  );
  const [ref] = requirePositionals('save', positionals, ['<name>'], ctx.msg);
  if (!values['image-name']) throw new UsageError(ctx.msg.missingArgument('--image-name'), 'save');
  const api = ctx.api();
  const container = await findContainer(api, ref as string, ctx.msg);
  const body: SaveImageInput = {
    name: values['image-name'],
    tag: values.tag,
    description: values.description,
  };
  const saved = await api.post<SavedUserImage>(`/api/containers/${container.container_id}/save-image`, body);
  if (values['no-wait']) {
    if (ctx.json) ctx.stdout.write(renderJson(saved));
    else ctx.stdout.write(`${saved.image_id}\n`);
    return 0;
  }
  const progress = progressOn(ctx.stderr);
  let image: UserImageDetail;
  try {
    for (;;) {
      image = await api.get<UserImageDetail>(`/api/images/${saved.image_id}`);
      if (image.status !== 'saving') break;
      progress.update(ctx.msg.progressSaving, image.progress);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    progress.done();
  }
  const label = `${image.name}:${image.tag}`;
  if (image.status === 'failed') throw new CliError(ctx.msg.saveFailed(label, image.error ?? ''));
  // What is inside the image (package lists) is GET /api/images/{id}'s, not this command's.
  const { contents: _contents, ...summary } = image;
  if (ctx.json) ctx.stdout.write(renderJson(summary));
  else ctx.stdout.write(`${ctx.msg.saveDone(label, formatBytes(image.size_bytes))}\n`);
  return 0;
}
