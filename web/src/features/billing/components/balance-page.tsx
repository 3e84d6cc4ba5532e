import { WalletOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  InputNumber,
  Row,
  Space,
  Statistic,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header';
import { useSetAlertThreshold } from '../api/billing-commands';
import { useBalance, useStatistics } from '../api/get-balance';
import { DEFAULT_ALERT_THRESHOLD, validateThreshold } from '../money';
import { TopUpDialog } from './top-up-dialog';

/** /user/balance: balance, alert threshold, statistics and the top-up dialog. */
export function BalancePage() {
  const { message } = App.useApp();
  const balance = useBalance();
  const stats = useStatistics();
  const setThreshold = useSetAlertThreshold();
  const [topUp, setTopUp] = useState(false);
  const [threshold, setThresholdValue] = useState<number | null>(DEFAULT_ALERT_THRESHOLD);

  useEffect(() => {
    if (balance.data) setThresholdValue(balance.data.alert_threshold);
  }, [balance.data]);
  useEffect(() => {
    if (balance.isError) message.error('获取余额信息失败');
  }, [balance.isError, message]);
  useEffect(() => {
    if (stats.isError) message.error('获取统计信息失败');
  }, [stats.isError, message]);

  const thresholdError = validateThreshold(threshold);
  const saveThreshold = () => {
    if (thresholdError || threshold === null) return;
    setThreshold.mutate(threshold, {
      onSuccess: () => message.success('告警阈值更新成功'),
      onError: () => message.error('更新告警阈值失败'),
    });
  };

  return (
    <div>
      <PageHeader
        title="余额"
        extra={
          <Space wrap>
            <Link to="/transactions">交易记录</Link>
            <Link to="/invoices">发票管理</Link>
            <Link to="/coupons">我的卡券</Link>
          </Space>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="账户余额" loading={balance.isPending}>
            <Flex justify="space-between" align="center" wrap gap={12}>
              <Statistic
                value={balance.data?.balance ?? 0}
                precision={2}
                prefix={<WalletOutlined />}
                suffix="元"
                valueStyle={{ fontSize: 32 }}
                data-testid="balance-amount"
              />
              <Button type="primary" size="large" onClick={() => setTopUp(true)} data-testid="top-up">
                充值
              </Button>
            </Flex>
            {balance.data && balance.data.balance < balance.data.alert_threshold ? (
              <Alert
                style={{ marginTop: 16 }}
                type="warning"
                showIcon
                message="余额低于告警阈值，按量计费的容器在余额用尽后将被停止，请及时充值。"
              />
            ) : null}
            <Form layout="inline" style={{ marginTop: 16 }}>
              <Form.Item
                label="余额告警阈值（元）"
                validateStatus={thresholdError ? 'error' : undefined}
                help={thresholdError ?? undefined}
              >
                <InputNumber
                  min={0}
                  precision={2}
                  value={threshold}
                  onChange={(v) => setThresholdValue(v)}
                  aria-label="余额告警阈值"
                  style={{ width: 160 }}
                />
              </Form.Item>
              <Button
                onClick={saveThreshold}
                loading={setThreshold.isPending}
                disabled={Boolean(thresholdError)}
              >
                保存
              </Button>
            </Form>
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              余额低于阈值时将通过邮件和短信提醒您。
            </Typography.Paragraph>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="消费统计" loading={stats.isPending}>
            <Row gutter={16}>
              <Col span={8}>
                <Statistic title="总消费" value={stats.data?.total_expense ?? 0} precision={2} prefix="¥" />
              </Col>
              <Col span={8}>
                <Statistic title="总充值" value={stats.data?.total_recharge ?? 0} precision={2} prefix="¥" />
              </Col>
              <Col span={8}>
                <Statistic
                  title="可用卡券"
                  value={`${stats.data?.available_coupons ?? 0} 张`}
                  data-testid="available-coupons"
                />
              </Col>
            </Row>
          </Card>
        </Col>
      </Row>
      <TopUpDialog open={topUp} onClose={() => setTopUp(false)} />
    </div>
  );
}
