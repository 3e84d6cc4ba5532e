// The console's view of the HTTP API: TYPES ONLY, derived from the zod schemas that validate the
// requests (modules/*/schema.ts) and describe the replies (modules/*/contract.ts), so each shape
// is written once. The console imports them as `import type … from '@gpucloud/control-plane/api'`
// (package.json "exports"); nothing here may be a value, or the browser bundle would pull in the
// control plane and zod. Replies are z.infer (what is served); requests are z.input (what the
// client may send: fields with a default are optional). The console type-checks this file and
// every file it imports, so it imports only schema and contract files (and the OpenAPI document's
// types, framework/openapi/types.ts, which import nothing): keep those free of the control
// plane's services, repositories and Node APIs.
//
// Shapes the console reads but that are plain values (regions: string[], occupied ports:
// number[], `{ ok: true }`) are left out.
import type { z } from 'zod';
import type * as openapi from './framework/openapi/types.js';
import type * as apiKeys from './modules/api-keys/contract.js';
import type * as apps from './modules/apps/contract.js';
import type * as appsRequests from './modules/apps/schema.js';
import type * as auth from './modules/auth/contract.js';
import type * as billing from './modules/billing/contract.js';
import type * as billingRequests from './modules/billing/schema.js';
import type * as catalogue from './modules/catalogue/contract.js';
import type * as catalogueRequests from './modules/catalogue/schema.js';
import type * as products from './modules/cloud-products/contract.js';
import type * as productRequests from './modules/cloud-products/schema.js';
import type * as containers from './modules/containers/contract.js';
import type * as containerRequests from './modules/containers/schema.js';
import type * as images from './modules/images/contract.js';
import type * as imageRequests from './modules/images/schema.js';
import type * as mcp from './modules/mcp/contract.js';
import type * as mcpRequests from './modules/mcp/schema.js';
import type * as messages from './modules/messages/contract.js';
import type * as nodes from './modules/nodes/contract.js';
import type * as nodeRequests from './modules/nodes/schema.js';
import type * as storage from './modules/storage/contract.js';
import type * as storageRequests from './modules/storage/schema.js';
import type * as users from './modules/users/contract.js';
import type * as userRequests from './modules/users/schema.js';
import type * as wechat from './modules/wechat/contract.js';

type Reply<T extends z.ZodTypeAny> = z.infer<T>;
type Body<T extends z.ZodTypeAny> = z.input<T>;

// ------------------------------------------------------------------ containers (我的容器, admin)

export type Container = Reply<typeof containers.containerReply>;
export type ContainerList = Reply<typeof containers.containerListReply>;
/** One GPU a container holds (by UUID; index and bus id for people). */
export type ContainerGpu = Container['gpus'][number];
export type ContainerStatusAnswer = Reply<typeof containers.containerStatusReply>;
export type ContainerPassword = Reply<typeof containers.containerPasswordReply>;
export type PurchaseAnswer = Reply<typeof containers.purchaseReply>;
/** GET /api/containers/{id}/metrics (监控): the container's GPUs over 最近 1 小时 or 最近 24 小时. */
export type ContainerMetrics = Reply<typeof containers.containerMetricsReply>;
/** One GPU at one point of ContainerMetrics (null where the container did not hold it then). */
export type ContainerGpuPoint = Reply<typeof containers.containerGpuPointReply>;
/** The `range` of GET /api/containers/{id}/metrics. */
export type ContainerMetricsRange = ContainerMetrics['range'];
/** Body of POST /api/cloud-products/{id}/purchase. */
export type PurchasePayload = Body<typeof containerRequests.purchaseSchema>;
/** hourly, daily, weekly, monthly, yearly (the console keeps their labels and discounts). */
export type BillingType = PurchasePayload['billing_type'];
/** Body of POST /api/containers/{id}/ports. */
export type ContainerPortsInput = Body<typeof containerRequests.updatePortsSchema>;
/** Body of POST /api/containers/{id}/mounts. */
export type ContainerMountsInput = Body<typeof containerRequests.updateMountsSchema>;

// ------------------------------------------------------------------ cloud products (算力市场)

export type CloudProduct = Reply<typeof products.cloudProductReply>;
export type CloudProductList = Reply<typeof products.cloudProductListReply>;
export type AdminProduct = Reply<typeof products.adminProductReply>;
export type AdminProductList = Reply<typeof products.adminProductListReply>;
/** Body of POST /api/admin/products and PUT /api/admin/products/{id}. */
export type ProductInput = Body<typeof productRequests.productSchema>;

// ------------------------------------------------------------------ catalogue and apps

export type Framework = Reply<typeof catalogue.frameworkReply>;
export type FrameworkVersion = Reply<typeof catalogue.frameworkVersionReply>;
export type SavedFramework = Reply<typeof catalogue.savedFrameworkReply>;
export type AdminFramework = Reply<typeof catalogue.adminFrameworkReply>;
export type AdminFrameworkList = Reply<typeof catalogue.adminFrameworkListReply>;
export type AppImage = Reply<typeof catalogue.appImageReply>;
export type AppImageList = Reply<typeof catalogue.appImageListReply>;
export type SavedImage = Reply<typeof catalogue.savedImageReply>;
/** Body of POST /api/admin/frameworks and PUT /api/admin/frameworks/{id}. */
export type FrameworkInput = Body<typeof catalogueRequests.frameworkSchema>;
/** Body of POST /api/admin/frameworks/{id}/versions and PUT /api/admin/framework-versions/{id}. */
export type VersionInput = Body<typeof catalogueRequests.versionSchema>;
/** Body of POST /api/admin/images and PUT /api/admin/images/{id}. */
export type ImageInput = Body<typeof catalogueRequests.imageSchema>;
export type ImageCategory = (typeof catalogueRequests.IMAGE_CATEGORIES)[number];

export type DeployAnswer = Reply<typeof apps.deployReply>;
/** Body of POST /api/apps/deploy. */
export type DeployPayload = Body<typeof appsRequests.deploySchema>;

// ------------------------------------------------------------------ my images (我的镜像, 保存镜像, admin)

/** A user's saved image (保存镜像); not the app market's AppImage. */
export type UserImage = Reply<typeof images.imageReply>;
export type UserImageStatus = UserImage['status'];
/** GET /api/images/{id}: the image and what is inside it (the list is GET /api/images/mine). */
export type UserImageDetail = Reply<typeof images.imageDetailReply>;
export type UserImageList = Reply<typeof images.imagesReply>;
export type ImageQuota = Reply<typeof images.imageQuota>;
export type ImageContents = Reply<typeof images.imageContents>;
export type ImageLayer = ImageContents['layers'][number];
export type PackageVersion = Reply<typeof images.packageVersion>;
export type PackageDiff = Reply<typeof images.packageDiff>;
export type ImageCompare = Reply<typeof images.imageCompareReply>;
export type SavedUserImage = Reply<typeof images.saveImageReply>;
export type AdminUserImage = Reply<typeof images.adminImageReply>;
/** Body of POST /api/containers/{id}/save-image. */
export type SaveImageInput = Body<typeof imageRequests.saveImageSchema>;
/** Body of PATCH /api/images/{id}. */
export type UpdateImageInput = Body<typeof imageRequests.updateImageSchema>;
/** Body of POST /api/admin/images/{id}/publish. */
export type PublishImageInput = Body<typeof imageRequests.publishImageSchema>;
/** Body of PUT /api/admin/users/{id}/image-quota. */
export type ImageQuotaInput = Body<typeof imageRequests.imageQuotaSchema>;

// ------------------------------------------------------------------ billing (费用中心, admin money)

export type Balance = Reply<typeof billing.balanceReply>;
export type Statistics = Reply<typeof billing.statisticsReply>;
export type CreatedPayment = Reply<typeof billing.createdPaymentReply>;
export type TradeState = Reply<typeof billing.tradeStateReply>;
export type PaymentClosed = Reply<typeof billing.paymentClosedReply>;
export type SandboxPayment = Reply<typeof billing.sandboxPaymentReply>;
export type BillingRecord = Reply<typeof billing.billingRecordReply>;
export type BillingRecordList = Reply<typeof billing.billingRecordListReply>;
export type Transaction = Reply<typeof billing.transactionReply>;
export type TransactionList = Reply<typeof billing.transactionListReply>;
export type Order = Reply<typeof billing.orderReply>;
export type OrderList = Reply<typeof billing.orderListReply>;
export type OrderStatus = Order['status'];
export type PayAnswer = Reply<typeof billing.payReply>;
export type Invoice = Reply<typeof billing.invoiceReply>;
export type InvoiceList = Reply<typeof billing.invoiceListReply>;
export type InvoiceStatus = Invoice['status'];
export type Coupon = Reply<typeof billing.couponReply>;
export type CouponList = Reply<typeof billing.couponListReply>;
export type CouponStatus = Coupon['status'];
export type GrantedCoupons = Reply<typeof billing.grantedCouponsReply>;
export type AdminPayment = Reply<typeof billing.adminPaymentReply>;
export type AdminPaymentList = Reply<typeof billing.adminPaymentListReply>;
/** Body of POST /api/invoices. */
export type InvoiceApplication = Body<typeof billingRequests.invoiceApplySchema>;
/** Body of POST /api/admin/coupons. */
export type CouponGrant = Body<typeof billingRequests.grantCouponsSchema>;
/** Body of POST /api/billing/wechat/create. */
export type TopUpInput = Body<typeof billingRequests.topUpSchema>;

// ------------------------------------------------------------------ storage (存储管理)

export type Volume = Reply<typeof storage.volumeReply>;
export type StorageInfo = Reply<typeof storage.storageInfoReply>;
export type VolumeSummary = Reply<typeof storage.volumeSummaryReply>;
export type StorageNode = Reply<typeof storage.storageNodeReply>;
/** Body of POST /api/storage/volumes. */
export type NewVolume = Body<typeof storageRequests.createVolumeSchema>;

// ------------------------------------------------------------------ nodes (admin 节点管理)

export type GpuNode = Reply<typeof nodes.nodeReply>;
export type GpuNodeList = Reply<typeof nodes.nodeListReply>;
export type NodeStatus = GpuNode['status'];
export type NodeGpu = GpuNode['gpus'][number];
/** ok, unhealthy, missing, mig, fabric. */
export type GpuState = NodeGpu['state'];
export type UnknownContainer = Reply<typeof nodes.unknownContainerReply>;
export type GpuMetrics = Reply<typeof nodes.gpuMetricsReply>;
export type NodeImage = Reply<typeof nodes.nodeImageReply>;
export type NodeImages = Reply<typeof nodes.nodeImagesReply>;
/** Body of POST /api/admin/nodes. */
export type NewNode = Body<typeof nodeRequests.addNodeSchema>;

// ------------------------------------------------------------------ users (个人中心, admin 用户管理)

export type Profile = Reply<typeof users.profileReply>;
export type AdminUser = Reply<typeof users.adminUserReply>;
export type AdminUserList = Reply<typeof users.adminUserListReply>;
export type AdminUserDetail = Reply<typeof users.adminUserDetailReply>;
export type UserContainerSummary = Reply<typeof users.userContainerSummaryReply>;

export type ApiKey = Reply<typeof apiKeys.apiKeyReply>;
export type ApiKeyList = Reply<typeof apiKeys.apiKeyListReply>;
export type RevealedApiKey = Reply<typeof apiKeys.revealedApiKeyReply>;

export type AuthAnswer = Reply<typeof auth.authReply>;
/** Body of POST /api/auth/login. */
export type LoginInput = Body<typeof userRequests.loginSchema>;
/** Body of POST /api/auth/register. */
export type RegisterInput = Body<typeof userRequests.registerSchema>;
/** Body of POST /api/auth/send-reset-code (the forgot-password wizard). */
export type ResetCodeInput = Body<typeof userRequests.sendResetCodeSchema>;
export type ResetContacts = Reply<typeof auth.resetContactsReply>;
export type WechatAuthorize = Reply<typeof wechat.wechatAuthorizeReply>;
export type WechatCallbackAnswer = Reply<typeof wechat.wechatCallbackReply>;

export type OutboxMessage = Reply<typeof messages.outboxMessageReply>;
export type OutboxList = Reply<typeof messages.outboxListReply>;

// ------------------------------------------------------------------ MCP containers

export type McpContainer = Reply<typeof mcp.mcpContainerReply>;
export type McpContainerList = Reply<typeof mcp.mcpContainerListReply>;
export type McpCreated = Reply<typeof mcp.mcpCreatedReply>;
export type McpLogs = Reply<typeof mcp.mcpLogsReply>;
export type McpStatus = McpContainer['status'];
/** Body of POST /api/mcp/containers. */
export type McpCreatePayload = Body<typeof mcpRequests.mcpCreateSchema>;

// ------------------------------------------------------------------ the API's own document (/docs/api)

/** GET /api/openapi.json (framework/openapi/types.ts: what the generator writes). */
export type OpenApiDocument = openapi.OpenApiDocument;
export type OpenApiOperation = openapi.OpenApiOperation;
export type OpenApiParameter = openapi.OpenApiParameter;
export type OpenApiResponse = openapi.OpenApiResponse;
export type JsonSchema = openapi.JsonSchema;
