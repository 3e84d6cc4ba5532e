// The containers module's routes in the OpenAPI document (framework/openapi): the purchase, 我的容器
// and its commands, the admin's 容器管理, and the log and console WebSockets.
import { containerIdPath, okReply, type RouteDoc, routeGroup } from '../../framework/openapi/describe.js';
import * as contract from './contract.js';
import {
  adminContainersQuery,
  containerMetricsQuery,
  purchaseSchema,
  resetPasswordSchema,
  startSchema,
  statusQuery,
  updateMountsSchema,
  updatePortsSchema,
} from './schema.js';

const byId = { id: containerIdPath };

/** A route on one of the caller's containers. */
const own = (route: Omit<RouteDoc, 'auth' | 'params'>): RouteDoc => ({
  ...route,
  auth: 'user',
  params: byId,
});
const admin = (route: Omit<RouteDoc, 'auth' | 'params'>): RouteDoc => ({
  ...route,
  auth: 'admin',
  params: byId,
});

export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  description: '同一个键的重复请求只购买一次，并得到第一次的答复',
};

const WS_CLOSE_CODES =
  '关闭码：4401 未登录或凭据无效，4404 容器不存在或不属于你，4409 容器未运行，4502 节点出错。';

export const containerDocs = routeGroup(
  { name: 'containers', description: '容器' },
  [
    {
      method: 'post',
      path: '/api/cloud-products/:id/purchase',
      summary: '购买容器（按量或包时），答复后节点拉取镜像并启动',
      description: '服务器计算价格，total_price 与之不符时拒绝。扣费与分配 GPU、端口在同一事务中完成。',
      auth: 'user',
      headers: [IDEMPOTENCY_KEY],
      body: purchaseSchema,
      status: 201,
      reply: contract.purchaseReply,
      errors: [402, 409, 503],
    },
    {
      method: 'get',
      path: '/api/containers',
      summary: '我的容器',
      auth: 'user',
      reply: contract.containerListReply,
    },
    own({ method: 'get', path: '/api/containers/:id', summary: '容器详情', reply: contract.containerReply }),
    own({
      method: 'get',
      path: '/api/containers/:id/status',
      summary: '容器状态（可等待状态变化，最长 30 秒）',
      query: statusQuery,
      reply: contract.containerStatusReply,
    }),
    own({
      method: 'get',
      path: '/api/containers/:id/metrics',
      summary: '容器 GPU 监控（按时间范围取样）',
      query: containerMetricsQuery,
      reply: contract.containerMetricsReply,
    }),
    own({
      method: 'post',
      path: '/api/containers/:id/start',
      summary: '启动容器（可选无卡模式）',
      body: startSchema,
      reply: contract.containerReply,
      errors: [402, 409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/containers/:id/stop',
      summary: '停止容器',
      reply: contract.containerReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'delete',
      path: '/api/containers/:id',
      summary: '释放（删除）容器',
      reply: okReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/containers/:id/reset-password',
      summary: '重置 root 密码（不填则随机生成）',
      body: resetPasswordSchema,
      reply: contract.containerPasswordReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/containers/:id/ports',
      summary: '修改自定义端口（重建容器，文件保留）',
      body: updatePortsSchema,
      reply: contract.containerReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'post',
      path: '/api/containers/:id/mounts',
      summary: '修改存储卷挂载（下次启动生效）',
      body: updateMountsSchema,
      reply: contract.containerReply,
      errors: [409],
    }),
    {
      method: 'get',
      path: '/api/admin/containers',
      summary: '全部用户的容器（分页）',
      auth: 'admin',
      query: adminContainersQuery,
      reply: contract.containerListReply,
    },
    admin({
      method: 'post',
      path: '/api/admin/containers/:id/start',
      summary: '启动任意用户的容器',
      body: startSchema,
      reply: contract.containerReply,
      errors: [402, 409, 502, 503],
    }),
    admin({
      method: 'post',
      path: '/api/admin/containers/:id/stop',
      summary: '停止任意用户的容器',
      reply: contract.containerReply,
      errors: [409, 502, 503],
    }),
    admin({
      method: 'delete',
      path: '/api/admin/containers/:id',
      summary: '释放任意用户的容器',
      reply: okReply,
      errors: [409, 502, 503],
    }),
    own({
      method: 'get',
      path: '/api/containers/ws/:id/logs',
      summary: '容器日志（WebSocket）',
      description: `升级为 WebSocket 后，服务器以文本帧推送日志（?tail= 最近多少行，默认 200，最多 5000），日志结束时以 1000 关闭。${WS_CLOSE_CODES}`,
      websocket: true,
      reply: 'empty',
    }),
    own({
      method: 'get',
      path: '/api/containers/ws/:id/console',
      summary: '容器终端（WebSocket）',
      description: `升级为 WebSocket 后即为容器内的 shell（?cols=&rows= 终端大小）：文本帧是键盘输入（空文本帧 = Ctrl-C），二进制帧是控制消息（{"type":"resize","cols":…,"rows":…}）；shell 的输出以二进制帧返回，退出时以 1000 和 "exit <code>" 关闭。${WS_CLOSE_CODES}`,
      websocket: true,
      reply: 'empty',
    }),
  ],
  contract,
);
