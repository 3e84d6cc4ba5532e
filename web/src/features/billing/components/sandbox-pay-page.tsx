import { CheckCircleFilled, WechatOutlined } from '@ant-design/icons';
import type { PaymentClosed, SandboxPayment } from '@gpucloud/control-plane/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Flex, Result, Typography } from 'antd';
import { useParams } from 'react-router-dom';
import { api, errorDetail, withDetail } from '../../../lib/api-client';
import { billingKeys } from '../../../lib/query-keys';
import { yuan } from '../money';

/**
 * /pay/sandbox/{out_trade_no}: what the QR code opens when WeChat Pay is not configured. Its
 * button pays; the console's polling then sees SUCCESS and the balance is credited through the
 * same path as a real payment notification. Only the order's owner, signed in, may pay it (the
 * server answers 401 otherwise, which leads to the login page, and 403 to another user).
 */
export function SandboxPayPage() {
  const { message } = App.useApp();
  const no = useParams().outTradeNo ?? '';
  const info = useQuery({
    queryKey: billingKeys.sandbox(no),
    queryFn: ({ signal }) =>
      api.get<SandboxPayment>(`/api/billing/wechat/sandbox/${encodeURIComponent(no)}`, { signal }),
  });
  const pay = useMutation({
    mutationFn: () => api.post<PaymentClosed>(`/api/billing/wechat/sandbox/${encodeURIComponent(no)}/pay`),
    onSuccess: () => {
      message.success('支付成功');
      void info.refetch();
    },
    onError: (error) => message.error(withDetail('支付出错', error)),
  });
  const paid = info.data?.trade_state === 'SUCCESS';

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }}>
      <Card style={{ width: 420, maxWidth: '100%' }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <WechatOutlined style={{ fontSize: 48, color: '#07c160' }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            微信支付（沙箱）
          </Typography.Title>
        </Flex>
        {info.isError ? <Alert type="error" showIcon message={errorDetail(info.error)} /> : null}
        {paid ? (
          <Result
            status="success"
            icon={<CheckCircleFilled />}
            title="支付成功"
            subTitle="请返回控制台查看余额"
          />
        ) : info.data ? (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message="未配置微信支付凭据，本页面代替微信扫码支付，不产生真实扣款。"
            />
            <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label="商品">{info.data.description}</Descriptions.Item>
              <Descriptions.Item label="订单号">{info.data.out_trade_no}</Descriptions.Item>
              <Descriptions.Item label="金额">{yuan(info.data.amount)}</Descriptions.Item>
            </Descriptions>
            <Button
              type="primary"
              block
              size="large"
              loading={pay.isPending}
              disabled={info.data.trade_state !== 'NOTPAY'}
              onClick={() => pay.mutate()}
              data-testid="sandbox-pay"
            >
              确认支付 {yuan(info.data.amount)}
            </Button>
          </>
        ) : null}
      </Card>
    </Flex>
  );
}
