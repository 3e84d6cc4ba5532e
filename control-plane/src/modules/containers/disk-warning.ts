// The owner's warning about a container's writable layer (its 系统盘), where the node cannot
// limit it: above 80% of the node's allowance per container, and above the allowance. Data belongs
// on a storage volume; a full Docker disk stops every container of the node.

/** From this share of the allowance on, the owner is warned. */
export const DISK_WARNING_SHARE = 0.8;

const GIB = 1024 ** 3;

function size(bytes: number): string {
  return bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1024 ** 2))} MB`;
}

/** The Chinese warning, or null when the layer is limited, unmeasured or well within the allowance. */
export function diskWarning(layerBytes: number | null, allowanceBytes: number | null): string | null {
  if (!layerBytes || !allowanceBytes || layerBytes < allowanceBytes * DISK_WARNING_SHARE) return null;
  const used = `系统盘已用 ${size(layerBytes)}`;
  const advice = '本节点无法限制容器系统盘, 写满将影响节点上所有容器; 请删除不需要的文件, 数据请放在存储卷中';
  return layerBytes >= allowanceBytes
    ? `${used}, 已超过 ${size(allowanceBytes)} 上限。${advice}`
    : `${used}, 接近 ${size(allowanceBytes)} 上限。${advice}`;
}
