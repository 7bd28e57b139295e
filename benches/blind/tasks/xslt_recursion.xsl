<?xml version="1.0" encoding="UTF-8"?>
<!--
  report.xsl: turn the daily orders export into the fixed-width text
  report the warehouse printer expects.
  Usage: xsltproc report.xsl orders.xml > report.txt
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:strip-space elements="*"/>

  <xsl:variable name="line-width" select="60"/>

  <!-- Right-align $text in a field of $width characters. -->
  <xsl:template name="pad-left">
    <xsl:param name="text"/>
    <xsl:param name="width" select="10"/>
    <xsl:choose>
      <xsl:when test="string-length($text) &lt; $width">
        <xsl:text> </xsl:text>
        <xsl:call-template name="pad-left">
          <xsl:with-param name="text" select="$text"/>
          <xsl:with-param name="witdh" select="$width - 1"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$text"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="rule">
    <xsl:value-of select="substring('============================================================', 1, $line-width)"/>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="/orders">
    <xsl:text>ORDERS FOR </xsl:text>
    <xsl:value-of select="@date"/>
    <xsl:text>&#10;</xsl:text>
    <xsl:call-template name="rule"/>
    <xsl:apply-templates select="order[@status != 'cancelled']"/>
    <xsl:call-template name="rule"/>
    <xsl:text>orders: </xsl:text>
    <xsl:value-of select="count(order)"/>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>

  <xsl:template match="order">
    <xsl:text>#</xsl:text>
    <xsl:value-of select="@id"/>
    <xsl:text>  </xsl:text>
    <xsl:value-of select="@customer"/>
    <xsl:text> (</xsl:text>
    <xsl:value-of select="@status"/>
    <xsl:text>)&#10;</xsl:text>
    <xsl:apply-templates select="item"/>
  </xsl:template>

  <xsl:template match="item">
    <xsl:text>    </xsl:text>
    <xsl:value-of select="@sku"/>
    <xsl:text>  </xsl:text>
    <xsl:value-of select="."/>
    <xsl:text> x</xsl:text>
    <xsl:value-of select="@qty"/>
    <xsl:call-template name="pad-left">
      <xsl:with-param name="text" select="format-number(@qty * @price, '0.00')"/>
      <xsl:with-param name="width" select="12"/>
    </xsl:call-template>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>

</xsl:stylesheet>
