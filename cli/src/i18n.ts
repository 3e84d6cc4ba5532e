// The CLI's own words, in English and Chinese. The API's errors arrive in Chinese (`detail`) and
// are printed as they come; everything the CLI says itself comes from this table.

export type Lang = 'en' | 'zh';

/**
 * Chinese when the locale that governs messages starts with `zh` (LC_ALL, then LC_MESSAGES, then
 * LANG, the POSIX order), English otherwise.
 */
export function chooseLanguage(env: Record<string, string | undefined>): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^zh/i.test(locale) ? 'zh' : 'en';
}

const en = {
  error: 'error',
  usageHint: 'Run gpucloud --help for usage.',
  unknownCommand: (c: string) => `unknown command: ${c}`,
  badArguments: (why: string) => `bad arguments: ${why}`,
  missingArgument: (what: string) => `missing ${what}`,
  tooManyArguments: 'too many arguments',
  badInteger: (option: string, min: number, max: number) =>
    `${option} must be a whole number from ${min} to ${max}`,
  badChoice: (option: string, choices: readonly string[]) => `${option} must be one of ${choices.join(', ')}`,
  notLoggedIn: 'not logged in: run gpucloud login (or set GPUCLOUD_API_KEY and GPUCLOUD_URL)',
  badUrl: (url: string) => `not an http(s) URL: ${url}`,
  badConfig: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreachable: (url: string, why: string) => `cannot reach ${url}: ${why}`,
  httpStatus: (status: number) => `the server answered HTTP ${status}`,
  needYes: 'this spends or deletes: confirm with --yes when not at a terminal',
  confirmSuffix: ' [y/N] ',
  cancelled: 'cancelled',
  // login
  apiKeyPrompt: 'API key: ',
  noApiKey: 'no API key given (--api-key, or type it when asked)',
  loggedIn: (user: string, url: string, file: string) => `Logged in to ${url} as ${user}. Saved to ${file}`,
  // containers
  noSuchContainer: (ref: string) => `no container named ${ref}`,
  ambiguousContainer: (ref: string, ids: string[]) =>
    `${ids.length} containers are named ${ref}: use the id (${ids.join(', ')})`,
  noContainers: 'No containers. Rent one with gpucloud create.',
  started: (name: string) => `Started ${name}`,
  stopped: (name: string) => `Stopped ${name}`,
  removed: (name: string) => `Deleted ${name}`,
  confirmRemove: (names: string) => `Delete ${names}? Its files are lost, this cannot be undone.`,
  notRunning: (name: string, status: string) => `${name} is not running (${status})`,
  noSshPort: (name: string) => `${name} has no SSH port`,
  // products and images
  noProducts: 'No servers match.',
  noImages: 'You have no saved images.',
  publicImages: 'Framework images (create --framework NAME --version VERSION):',
  myImages: 'Your images (create --image NAME:TAG):',
  // create
  noSuchProduct: (id: number) => `no server with id ${id} (see gpucloud products)`,
  noSuchFramework: (name: string, names: string[]) => `no framework ${name}; there are: ${names.join(', ')}`,
  noSuchVersion: (name: string, versions: string[]) =>
    `framework has no version ${name}; there are: ${versions.join(', ')}`,
  noSuchImage: (ref: string) => `you have no ready image ${ref} (see gpucloud images --mine)`,
  frameworkOrImage: 'give --framework (a catalogue image) or --image (one of yours), not both',
  badMount: (m: string) => `--mount takes SOURCE:/target, not ${m}`,
  badEnv: (e: string) => `--env takes NAME=VALUE, not ${e}`,
  confirmPurchase: (what: string, total: string) => `Rent ${what} for ${total}?`,
  created: (name: string, id: string) => `Created ${name} (${id})`,
  waitTimedOut: (name: string, status: string) => `${name} is still ${status}: stopped waiting`,
  startFailed: (name: string, status: string, why: string) => `${name} did not start (${status}): ${why}`,
  sshHint: (cmd: string, name: string) => `SSH: ${cmd}   (or: gpucloud ssh ${name})`,
  // ssh and scp
  sshPassword: (password: string) => `The container's root password: ${password}`,
  scpNoRemote: 'name the container in one of the paths: NAME:/path',
  scpTwoContainers: 'copy between your machine and one container at a time',
  programMissing: (p: string) => `${p} is not installed (Debian/Ubuntu: apt-get install openssh-client)`,
  // logs
  logStreamLost: 'the log stream was cut off',
  // save
  saveDone: (image: string, size: string) => `Saved ${image} (${size})`,
  saveFailed: (image: string, why: string) => `saving ${image} failed: ${why}`,
  // balance
  balance: (amount: string) => `Balance: ${amount}`,
  alertThreshold: (amount: string) => `Low-balance alert below: ${amount}`,
  // progress labels
  progressPulling: 'pulling image',
  progressStarting: 'starting',
  progressSaving: 'saving image',
  // table headers
  headers: {
    id: 'ID',
    name: 'NAME',
    status: 'STATUS',
    gpus: 'GPUS',
    region: 'REGION',
    ssh: 'SSH',
    cost: 'COST',
    gpuType: 'GPU',
    available: 'FREE/TOTAL',
    price: 'PRICE/GPU·H',
    cpu: 'CPU',
    memory: 'MEMORY',
    disk: 'DISK',
    framework: 'FRAMEWORK',
    version: 'VERSION',
    image: 'IMAGE',
    cuda: 'CUDA',
    tag: 'TAG',
    size: 'SIZE',
    created: 'CREATED',
  },
  status: {
    running: 'running',
    starting: 'starting',
    creating: 'creating',
    pulling: 'pulling image',
    stopped: 'stopped',
    error: 'error',
    failed: 'failed',
    not_found: 'not found',
    deleted: 'deleted',
    available: 'available',
    offline: 'offline',
    saving: 'saving',
    ready: 'ready',
  } as Record<string, string>,
  billing: {
    hourly: 'hourly',
    daily: 'daily',
    weekly: 'weekly',
    monthly: 'monthly',
    yearly: 'yearly',
  } as Record<string, string>,
  perGpuHour: '/GPU·h',
  help: `Usage: gpucloud <command> [options]

Commands:
  login                 Save the URL and API key of your GPU cloud (checked first)
  products              List the GPU servers on the market
  images                List the framework images and your own images
  create                Rent a container
  ls                    List your containers
  start <name>...       Start stopped containers
  stop <name>...        Stop running containers
  rm <name>...          Delete containers (their files are lost)
  logs <name>           Print a container's log (-f to follow it)
  ssh <name>            Open an SSH session in a container, or run a command
  scp <from>... <to>    Copy files to or from a container (NAME:/path)
  save <name>           Save a container as an image of yours
  balance               Show your balance

Every command takes --json (output for scripts) and -h/--help.
A container is named by its name or its id (c-…).
Environment: GPUCLOUD_API_KEY and GPUCLOUD_URL override the saved login;
LANG=zh_CN.UTF-8 (or LC_ALL) for Chinese messages.
`,
  commandHelp: {
    login: `Usage: gpucloud login [--url URL] [--api-key KEY]

Checks the key against the server and saves both to
$XDG_CONFIG_HOME/gpucloud/config.json (~/.config/gpucloud/config.json), readable by you only.
Without --api-key it asks for the key (or reads one line from standard input).
Create a key in the console: 个人中心 → API 密钥.`,
    products: `Usage: gpucloud products [--region R] [--gpu-type T]... [--gpus N] [--system ubuntu|windows]
                        [--status available|offline]`,
    images: `Usage: gpucloud images [--mine | --public]`,
    create: `Usage: gpucloud create --product ID (--framework NAME [--version V] | --image NAME[:TAG])
                      [--name NAME] [--gpus N] [--billing hourly|daily|weekly|monthly|yearly]
                      [--duration N] [--port P]... [--mount SOURCE:/target]... [--env K=V]...
                      [--expand] [--wait [--timeout SECONDS]] [--yes]

Buys the container on the server (see gpucloud products) and prints its id; the node then pulls
the image and starts it. --wait follows it until it runs (or fails). --yes confirms the purchase
and the terms of service without asking.`,
    ls: 'Usage: gpucloud ls',
    start: 'Usage: gpucloud start <name>... [--no-gpu]',
    stop: 'Usage: gpucloud stop <name>...',
    rm: 'Usage: gpucloud rm <name>... [--yes]',
    logs: 'Usage: gpucloud logs <name> [-f|--follow] [--tail N]',
    ssh: `Usage: gpucloud ssh <name> [-i KEY] [-v] [-- SSH-ARGS-OR-COMMAND...]

Runs your ssh client as root@ the container. It uses your SSH key when the container takes it,
else the container's password (through sshpass when installed; otherwise it is printed).
Example: gpucloud ssh box -- nvidia-smi`,
    scp: `Usage: gpucloud scp [-r] [-i KEY] [-v] <from>... <to>

A path in the container is NAME:/path. Examples:
  gpucloud scp ./data.tar box:/root/
  gpucloud scp -r box:/root/outputs ./`,
    save: 'Usage: gpucloud save <name> --image-name NAME [--tag TAG] [--description TEXT] [--no-wait]',
    balance: 'Usage: gpucloud balance',
  } as Record<string, string>,
};

export type Messages = typeof en;

const zh: Messages = {
  error: '错误',
  usageHint: '用法见 gpucloud --help',
  unknownCommand: (c) => `未知命令: ${c}`,
  badArguments: (why) => `参数错误: ${why}`,
  missingArgument: (what) => `缺少 ${what}`,
  tooManyArguments: '参数过多',
  badInteger: (option, min, max) => `${option} 必须是 ${min} 到 ${max} 之间的整数`,
  badChoice: (option, choices) => `${option} 只能是 ${choices.join('、')}`,
  notLoggedIn: '尚未登录: 请运行 gpucloud login (或设置 GPUCLOUD_API_KEY 和 GPUCLOUD_URL)',
  badUrl: (url) => `不是 http(s) 地址: ${url}`,
  badConfig: (file, why) => `无法读取 ${file}: ${why}`,
  unreachable: (url, why) => `无法连接 ${url}: ${why}`,
  httpStatus: (status) => `服务器返回 HTTP ${status}`,
  needYes: '此操作会扣费或删除数据: 不在终端运行时请加 --yes 确认',
  confirmSuffix: ' [y/N] ',
  cancelled: '已取消',
  apiKeyPrompt: 'API 密钥: ',
  noApiKey: '未提供 API 密钥 (--api-key，或在提示时输入)',
  loggedIn: (user, url, file) => `已登录 ${url}，用户 ${user}。已保存到 ${file}`,
  noSuchContainer: (ref) => `没有名为 ${ref} 的容器`,
  ambiguousContainer: (ref, ids) => `有 ${ids.length} 个容器名为 ${ref}，请使用容器编号 (${ids.join('、')})`,
  noContainers: '没有容器。用 gpucloud create 租用一台。',
  started: (name) => `已启动 ${name}`,
  stopped: (name) => `已停止 ${name}`,
  removed: (name) => `已删除 ${name}`,
  confirmRemove: (names) => `删除 ${names}？容器内的文件将丢失，此操作不可恢复。`,
  notRunning: (name, status) => `${name} 未在运行 (${status})`,
  noSshPort: (name) => `${name} 没有 SSH 端口`,
  noProducts: '没有符合条件的服务器。',
  noImages: '你还没有保存的镜像。',
  publicImages: '框架镜像 (create --framework 名称 --version 版本):',
  myImages: '我的镜像 (create --image 名称:标签):',
  noSuchProduct: (id) => `没有编号为 ${id} 的服务器 (见 gpucloud products)`,
  noSuchFramework: (name, names) => `没有框架 ${name}，可选: ${names.join('、')}`,
  noSuchVersion: (name, versions) => `该框架没有版本 ${name}，可选: ${versions.join('、')}`,
  noSuchImage: (ref) => `你没有可用的镜像 ${ref} (见 gpucloud images --mine)`,
  frameworkOrImage: '请指定 --framework (框架镜像) 或 --image (我的镜像) 之一',
  badMount: (m) => `--mount 的格式为 源:/目标路径，而不是 ${m}`,
  badEnv: (e) => `--env 的格式为 名称=值，而不是 ${e}`,
  confirmPurchase: (what, total) => `租用 ${what}，共 ${total}？`,
  created: (name, id) => `已创建 ${name} (${id})`,
  waitTimedOut: (name, status) => `${name} 仍为${status}，已停止等待`,
  startFailed: (name, status, why) => `${name} 未能启动 (${status}): ${why}`,
  sshHint: (cmd, name) => `SSH: ${cmd}   (或: gpucloud ssh ${name})`,
  sshPassword: (password) => `容器的 root 密码: ${password}`,
  scpNoRemote: '请在某个路径中指明容器: 名称:/路径',
  scpTwoContainers: '一次只能在本机和一个容器之间复制',
  programMissing: (p) => `未安装 ${p} (Debian/Ubuntu: apt-get install openssh-client)`,
  logStreamLost: '日志流已断开',
  saveDone: (image, size) => `已保存 ${image} (${size})`,
  saveFailed: (image, why) => `保存 ${image} 失败: ${why}`,
  balance: (amount) => `余额: ${amount}`,
  alertThreshold: (amount) => `余额预警阈值: ${amount}`,
  progressPulling: '拉取镜像中',
  progressStarting: '启动中',
  progressSaving: '保存镜像中',
  headers: {
    id: '编号',
    name: '名称',
    status: '状态',
    gpus: 'GPU',
    region: '地区',
    ssh: 'SSH',
    cost: '费用',
    gpuType: 'GPU 型号',
    available: '可用/总数',
    price: '单价/卡/时',
    cpu: 'CPU',
    memory: '内存',
    disk: '硬盘',
    framework: '框架',
    version: '版本',
    image: '镜像',
    cuda: 'CUDA',
    tag: '标签',
    size: '大小',
    created: '创建时间',
  },
  status: {
    running: '运行中',
    starting: '启动中',
    creating: '创建中',
    pulling: '拉取镜像中',
    stopped: '已停止',
    error: '错误',
    failed: '失败',
    not_found: '不存在',
    deleted: '已删除',
    available: '可用',
    offline: '离线',
    saving: '保存中',
    ready: '可用',
  },
  billing: {
    hourly: '按小时计费',
    daily: '包日',
    weekly: '包周',
    monthly: '包月',
    yearly: '包年',
  },
  perGpuHour: '/卡/时',
  help: `用法: gpucloud <命令> [选项]

命令:
  login                 保存 GPU 云的地址和 API 密钥 (先校验)
  products              列出算力市场的服务器
  images                列出框架镜像和我的镜像
  create                租用容器
  ls                    列出我的容器
  start <名称>...       启动已停止的容器
  stop <名称>...        停止运行中的容器
  rm <名称>...          删除容器 (容器内文件将丢失)
  logs <名称>           查看容器日志 (-f 持续跟踪)
  ssh <名称>            SSH 登录容器，或执行一条命令
  scp <源>... <目标>    在本机和容器之间复制文件 (名称:/路径)
  save <名称>           把容器保存为我的镜像
  balance               查看余额

所有命令都支持 --json (供脚本使用的输出) 和 -h/--help。
容器可用名称或编号 (c-…) 指定。
环境变量: GPUCLOUD_API_KEY 和 GPUCLOUD_URL 优先于已保存的登录信息。
`,
  commandHelp: {
    login: `用法: gpucloud login [--url 地址] [--api-key 密钥]

向服务器校验密钥后，把地址和密钥保存到
$XDG_CONFIG_HOME/gpucloud/config.json (~/.config/gpucloud/config.json)，仅本人可读。
不给 --api-key 时会提示输入 (或从标准输入读取一行)。
API 密钥在控制台 个人中心 → API 密钥 创建。`,
    products: `用法: gpucloud products [--region 地区] [--gpu-type 型号]... [--gpus 数量]
                        [--system ubuntu|windows] [--status available|offline]`,
    images: '用法: gpucloud images [--mine | --public]',
    create: `用法: gpucloud create --product 编号 (--framework 框架 [--version 版本] | --image 名称[:标签])
                      [--name 名称] [--gpus 数量] [--billing hourly|daily|weekly|monthly|yearly]
                      [--duration 时长] [--port 端口]... [--mount 源:/目标]... [--env 名称=值]...
                      [--expand] [--wait [--timeout 秒]] [--yes]

在该服务器 (见 gpucloud products) 上购买容器并输出其编号，节点随后拉取镜像并启动。
--wait 等到容器运行 (或失败) 为止。--yes 表示确认购买并同意服务条款，不再询问。`,
    ls: '用法: gpucloud ls',
    start: '用法: gpucloud start <名称>... [--no-gpu]',
    stop: '用法: gpucloud stop <名称>...',
    rm: '用法: gpucloud rm <名称>... [--yes]',
    logs: '用法: gpucloud logs <名称> [-f|--follow] [--tail 行数]',
    ssh: `用法: gpucloud ssh <名称> [-i 私钥] [-v] [-- SSH参数或命令...]

以 root 身份用本机的 ssh 客户端登录容器。容器接受你的 SSH 密钥时用密钥，否则用容器密码
(已安装 sshpass 时自动填入，否则打印出来)。
例: gpucloud ssh box -- nvidia-smi`,
    scp: `用法: gpucloud scp [-r] [-i 私钥] [-v] <源>... <目标>

容器内的路径写作 名称:/路径。例:
  gpucloud scp ./data.tar box:/root/
  gpucloud scp -r box:/root/outputs ./`,
    save: '用法: gpucloud save <名称> --image-name 镜像名 [--tag 标签] [--description 描述] [--no-wait]',
    balance: '用法: gpucloud balance',
  },
};

export const MESSAGES: Record<Lang, Messages> = { en, zh };

/** A status as people read it, with the percentage of a pull (or a save) where given. */
export function statusLabel(msg: Messages, status: string, progress?: number | null): string {
  const label = msg.status[status] ?? status;
  return typeof progress === 'number' ? `${label} ${progress}%` : label;
}
