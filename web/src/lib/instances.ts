// What the two ways of creating an instance (the light-instance market's purchase dialog and the
// app market's deploy drawer) share.

/** Said once the purchase is accepted: the node pulls the image and starts it after the answer. */
export const MSG_CREATED = '实例已创建，正在拉取镜像并启动，进度见我的容器';

/** instance-xxxxxx: the name a new instance gets unless the user gives one. */
export function defaultInstanceName(random: () => number = Math.random): string {
  return `instance-${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}
