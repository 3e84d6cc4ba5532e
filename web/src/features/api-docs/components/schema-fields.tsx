import type { JsonSchema, OpenApiDocument } from '@gpucloud/control-plane/api';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { fieldRows, typeLabel } from '../model';

/**
 * A schema's fields as a table, nested objects' fields indented under theirs. `requiredLabel`
 * heads the column that says whether a field must be sent (a request) or is always there (a reply).
 */
export function SchemaFields({
  doc,
  schema,
  requiredLabel,
}: {
  doc: OpenApiDocument;
  schema: JsonSchema;
  requiredLabel: string;
}) {
  const rows = useMemo(() => fieldRows(doc, schema), [doc, schema]);
  const type = typeLabel(doc, schema);
  if (rows.length === 0) {
    return (
      <Typography.Text>
        类型 <Typography.Text code>{type}</Typography.Text>
      </Typography.Text>
    );
  }
  return (
    <div className="api-docs-table-wrap">
      {type === 'object' ? null : <Typography.Text type="secondary">{type}，字段如下：</Typography.Text>}
      <table className="api-docs-fields">
        <thead>
          <tr>
            <th>字段</th>
            <th>类型</th>
            <th>{requiredLabel}</th>
            <th>说明</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-field={row.id}>
              <td style={{ paddingInlineStart: 8 + row.depth * 20 }}>
                <code>{row.name}</code>
              </td>
              <td>
                <code>{row.type}</code>
              </td>
              <td>{row.required ? '是' : '否'}</td>
              <td>{row.notes.join('；')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
